--TEST--
Callables: abortOnLoss's exception lands only in the $fn of the run() that lost its lock: when the loss comes while an observer or an onLoss callable runs inside $fn, that callable finishes undisturbed (nothing swallowed, nothing counted) and the exception is thrown in $fn as soon as it returns; a run() inside an observer still gets its own alarm in its own $fn
--EXTENSIONS--
redlock
--SKIPIF--
<?php if (PHP_OS_FAMILY === 'Windows') die('skip memory:// needs unix sockets'); ?>
--FILE--
<?php
$servers = ['memory://a', 'memory://b', 'memory://c'];
$m = fn (string $k) => RedLock::metrics()[$k];
// Waits, running PHP code (so the VM interrupt has somewhere to land), until the renewal thread counted a loss.
$waitLoss = function (int $lost) use ($m): bool {
    for ($until = microtime(true) + 3; $m('lost') === $lost && microtime(true) < $until;) {
        usleep(1000);
    }
    return $m('lost') > $lost;
};

echo "-- the loss comes while the observer runs\n";
$before = $m('observer_errors');
$r = new RedLock($servers, 10, 3, ['autoExtend' => true, 'abortOnLoss' => true]);
$r->setObserver(function (array $call) use ($m, $waitLoss) {
    if ($call['call'] === 'extend') {
        $lost = $m('lost');
        RedLockMemory::advance(10000); // the lease is gone: the renewal thread finds it lost
        echo 'observer saw the loss and finished: ', var_export($waitLoss($lost), true), "\n";
    }
});
$steps = [];
try {
    $r->run('job', 3000, function (array $lock, RedLock $r) use (&$steps) {
        $steps[] = 'before extend()';
        $r->extend($lock, 3000);
        $steps[] = 'after extend(): kept working without the lock';
        return 'returned';
    });
} catch (RedLockException $e) {
    echo $e->getMessage(), "\n";
}
echo implode(', ', $steps), "\n";
echo 'observer_errors +', $m('observer_errors') - $before, "\n";
RedLockMemory::reset();

echo "-- the loss comes while an onLoss callable runs\n";
$before = $m('on_loss_errors');
$told = [];
$rival = new RedLock($servers);
$x = new RedLock($servers, 10, 3, ['autoExtend' => true, 'onLoss' => function (array $lock, string $reason) use (&$told, $m, $waitLoss) {
    $lost = $m('lost');
    RedLockMemory::advance(10000); // now run()'s lease goes too, while this callable runs
    $told[] = "$reason, then saw the run() lock lost: " . var_export($waitLoss($lost), true);
}]);
$r = new RedLock($servers, 10, 3, ['autoExtend' => true, 'abortOnLoss' => true]);
$steps = [];
try {
    $r->run('job2', 3000, function () use ($x, $rival, &$steps, &$told) {
        $x->lock('other', 3000);
        $rival->forceUnlock('other'); // x's renewal fails: its onLoss runs at the next opcode here
        for ($until = microtime(true) + 3; !$told && microtime(true) < $until;) {
            usleep(1000);
        }
        $steps[] = 'kept working without the lock';
        return 'returned';
    });
} catch (RedLockException $e) {
    echo $e->getMessage(), "\n";
}
echo implode(', ', $told), "\n";
echo 'steps after the loss: ', count($steps), ', on_loss_errors +', $m('on_loss_errors') - $before, "\n";
RedLockMemory::reset();

echo "-- a run() inside an observer: its own alarm in its own \$fn\n";
$r = new RedLock($servers, 10, 3, ['autoExtend' => true, 'abortOnLoss' => true]);
$inner = [];
$r->setObserver(function (array $call) use ($r, &$inner, $m, $waitLoss) {
    static $once = false;
    if ($call['call'] !== 'validity' || $once) {
        return;
    }
    $once = true;
    try {
        $r->run('inner', 3000, function () use ($m, $waitLoss, &$inner) {
            $lost = $m('lost');
            RedLockMemory::advance(10000);
            $waitLoss($lost);
            for ($i = 0; $i < 100; $i++) {
                usleep(100);
            }
            $inner[] = 'inner $fn not interrupted';
        });
    } catch (RedLockException $e) {
        $inner[] = 'inner: ' . $e->getMessage();
    }
});
$lock = $r->lock('outer', 100000);
$r->validity($lock);
echo implode("\n", $inner), "\n";
$r->setObserver(null); // the closure holds $r: a cycle still alive at shutdown is reported by LeakSanitizer
RedLockMemory::reset();
?>
--EXPECT--
-- the loss comes while the observer runs
observer saw the loss and finished: true
The lock on "job" was lost during the work: a renewal did not reach a quorum, or maxExtensions was reached (abortOnLoss)
before extend()
observer_errors +0
-- the loss comes while an onLoss callable runs
The lock on "job2" was lost during the work: a renewal did not reach a quorum, or maxExtensions was reached (abortOnLoss)
renewal_failed, then saw the run() lock lost: true
steps after the loss: 0, on_loss_errors +0
-- a run() inside an observer: its own alarm in its own $fn
inner: The lock on "inner" was lost during the work: a renewal did not reach a quorum, or maxExtensions was reached (abortOnLoss)
