--TEST--
Callables: exit() inside an observer, an onLoss callable or run()'s $fn ends the script as PHP's exit() does (its status kept, no line after it runs); run() releases its lock on the way out and calls no observer or onLoss callable after the exit
--EXTENSIONS--
redlock
--SKIPIF--
<?php if (PHP_OS_FAMILY === 'Windows') die('skip memory:// needs unix sockets'); ?>
--FILE--
<?php
require __DIR__ . '/../inc/callables.inc';
$prelude = '$servers = ["memory://a", "memory://b", "memory://c"];'
    . ' register_shutdown_function(function () { echo "shutdown: keys ", json_encode(array_keys(RedLockMemory::keys("a"))), "\n"; });'
    . ' $wait = function (&$flag) { for ($u = microtime(true) + 3; !$flag && microtime(true) < $u;) usleep(1000); };';
$cases = [
    'observer of lock()' => '$r = new RedLock($servers); $r->setObserver(function ($c) { echo "observer: {$c["call"]}\n"; exit(3); });'
        . ' $r->lock("a", 10000); echo "after lock()\n";',
    'onLoss' => '$told = false; $r = new RedLock($servers, 10, 3, ["autoExtend" => true, "onLoss" => function ($l, $why) use (&$told) { $told = true; echo "onLoss: $why\n"; exit(4); }]);'
        . ' $r->lock("b", 3000); (new RedLock($servers))->forceUnlock("b"); $wait($told); echo "after the loss\n";',
    'observer at run()\'s start' => '$r = new RedLock($servers); $r->setObserver(function ($c) { echo "observer: {$c["call"]}\n"; if ($c["call"] === "run") exit(5); });'
        . ' $r->run("c", 10000, function () { echo "fn ran\n"; }); echo "after run()\n";',
    'run()\'s $fn' => '$r = new RedLock($servers, 10, 3, ["onLoss" => function () { echo "onLoss after exit\n"; }]); $r->setObserver(function ($c) { echo "observer: {$c["call"]}\n"; });'
        . ' $r->run("d", 100, function () { usleep(150000); echo "fn exits\n"; exit(6); }); echo "after run()\n";',
    'onLoss at run()\'s end' => '$r = new RedLock($servers, 10, 3, ["onLoss" => function ($l, $why) { echo "onLoss: $why\n"; exit(7); }]);'
        . ' try { $r->run("e", 100, function () { usleep(150000); }); } catch (Throwable $e) { echo get_class($e), "\n"; } echo "after run()\n";',
];
foreach ($cases as $name => $code) {
    [$status, $out] = cb_child($prelude . ' ' . $code);
    echo "-- $name: exit status $status\n$out\n";
}
?>
--EXPECT--
-- observer of lock(): exit status 3
observer: lock
shutdown: keys ["a"]
-- onLoss: exit status 4
onLoss: renewal_failed
shutdown: keys []
-- observer at run()'s start: exit status 5
observer: run
shutdown: keys []
-- run()'s $fn: exit status 6
observer: run
fn exits
shutdown: keys []
-- onLoss at run()'s end: exit status 7
onLoss: expired
shutdown: keys []
