--TEST--
Callables: each callable may call its own object again: an observer that runs run() (its own calls unobserved), an onLoss callable that takes, unlocks and runs, a $fn with a nested run() whose outer lock is lost (the alarm crosses the inner run(), which releases its lock)
--EXTENSIONS--
redlock
--SKIPIF--
<?php if (PHP_OS_FAMILY === 'Windows') die('skip memory:// needs unix sockets'); ?>
--FILE--
<?php
$servers = ['memory://a', 'memory://b', 'memory://c'];
$keys = fn () => implode(',', array_keys(RedLockMemory::keys('a')));

echo "-- observer\n";
$seen = [];
$r = new RedLock($servers);
$r->setObserver(function (array $call) use (&$r, &$seen) {
    $seen[] = $call['call'];
    if ($call['call'] === 'lock') {
        $seen[] = $r->run('from-observer', 1000, fn (array $lock) => "ran {$lock['resource']}");
    }
});
$r->unlock($r->lock('o', 1000));
echo implode(', ', $seen), '; keys left: [', $keys(), "]\n";

echo "-- onLoss\n";
$seen = [];
$r = new RedLock($servers, 10, 3, ['autoExtend' => true, 'onLoss' => function (array $lock, string $reason) use (&$r, &$seen) {
    $again = $r->lock($lock['resource'], 1000);
    $seen[] = "$reason, taken again: " . var_export(is_array($again), true) . ', unlocked: ' . var_export($r->unlock($again), true);
    $seen[] = $r->run('from-onloss', 1000, fn () => 'ran');
}]);
$r->lock('l', 300);
(new RedLock($servers))->forceUnlock('l');
for ($until = microtime(true) + 3; !$seen && microtime(true) < $until;) {
    usleep(1000);
}
echo implode('; ', $seen), '; keys left: [', $keys(), "]\n";

echo "-- nested run()\n";
$r = new RedLock($servers, 10, 3, ['autoExtend' => true, 'abortOnLoss' => true]);
try {
    $r->run('outer', 3000, function () use ($r) {
        return $r->run('inner', 100000, function () {
            $lost = RedLock::metrics()['lost'];
            RedLockMemory::advance(5000); // outer's lease (3 s) goes, inner's (100 s) stays
            for ($until = microtime(true) + 3; RedLock::metrics()['lost'] === $lost && microtime(true) < $until;) {
                usleep(1000);
            }
            for ($i = 0; $i < 100; $i++) {
                usleep(100);
            }
            return 'inner not interrupted';
        });
    });
} catch (RedLockException $e) {
    echo $e->getMessage(), "\n";
}
echo 'keys left: [', $keys(), "]\n";
RedLockMemory::reset();
?>
--EXPECT--
-- observer
lock, ran from-observer, unlock; keys left: []
-- onLoss
renewal_failed, taken again: true, unlocked: true; ran; keys left: []
-- nested run()
The lock on "outer" was lost during the work: a renewal did not reach a quorum, or maxExtensions was reached (abortOnLoss)
keys left: []
