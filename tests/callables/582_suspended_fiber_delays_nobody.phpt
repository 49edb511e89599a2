--TEST--
Callables: an onLoss callable that suspends its Fiber delays no other lock's onLoss (nothing is held across a callable); it finishes when resumed; an observer that suspends its Fiber leaves the object's other calls observed
--EXTENSIONS--
redlock
--SKIPIF--
<?php if (PHP_OS_FAMILY === 'Windows') die('skip memory:// needs unix sockets'); ?>
--FILE--
<?php
$servers = ['memory://a', 'memory://b', 'memory://c'];
$told = [];
$wait = function (string $what) use (&$told): bool {
    for ($until = microtime(true) + 3; !in_array($what, $told, true) && microtime(true) < $until;) {
        usleep(1000);
    }
    return in_array($what, $told, true);
};
$onLoss = function (array $lock, string $reason) use (&$told) {
    $told[] = $lock['resource'];
    if (Fiber::getCurrent() !== null) {
        Fiber::suspend('suspended in onLoss');
        $told[] = "{$lock['resource']} resumed";
    }
};
$rival = new RedLock($servers);
$x = new RedLock($servers, 10, 3, ['autoExtend' => true, 'onLoss' => $onLoss]);
$y = new RedLock($servers, 10, 3, ['autoExtend' => true, 'onLoss' => $onLoss]);

echo "-- onLoss suspends its Fiber\n";
$x->lock('x', 300);
$fiber = new Fiber(function () use ($rival, $wait) {
    $rival->forceUnlock('x'); // x's renewal fails; its onLoss runs here, in the fiber, and suspends it
    $wait('x');
    return 'fiber done';
});
echo $fiber->start(), "\n";
$y->lock('y', 300);
$rival->forceUnlock('y');
echo "y's onLoss told while x's is suspended: ", var_export($wait('y'), true), "\n";
$fiber->resume();
echo $fiber->getReturn(), ': ', implode(', ', $told), "\n";

echo "-- an observer suspends its Fiber\n";
$seen = [];
$o = new RedLock($servers);
$o->setObserver(function (array $call) use (&$seen) {
    $seen[] = $call['call'];
    if (Fiber::getCurrent() !== null) {
        Fiber::suspend();
    }
});
$fiber = new Fiber(fn () => $o->lock('o1', 1000));
$fiber->start();
$lock = $o->lock('o2', 1000);
$o->unlock($lock);
echo implode(', ', $seen), "\n";
$fiber->resume();
echo is_array($fiber->getReturn()) ? "the fiber's lock() returned its lock\n" : "no lock\n";
?>
--EXPECT--
-- onLoss suspends its Fiber
suspended in onLoss
y's onLoss told while x's is suspended: true
fiber done: x, y, x resumed
-- an observer suspends its Fiber
lock, lock, unlock
the fiber's lock() returned its lock
