--TEST--
A script-free extension is not blocked by a longer key on a minority (issue 32, defect 9's read): a scripted extend() to 60 s runs on one of three memory:// servers (the two others answer errors: it returns false); the script-free holder's extend() then still extends the lock (the two short keys written for as long as the long one has left, which is never shortened), and its autoExtend renewals keep the lease past its ttl where main's read-first extension wrote nothing and the lease was lost
--EXTENSIONS--
redlock
--FILE--
<?php
require __DIR__ . '/../inc/redlock_test.inc';
$memory = ['memory://a569', 'memory://b569', 'memory://c569'];
$left = fn ($k) => array_map(fn ($s) => RedLockMemory::keys($s)[$k] ?? -2, $memory);
$scripted = new RedLock($memory, 0, 1);
$free = new RedLock($memory, 0, 1, ['scripts' => false]);

$lock = $free->lock('k', 5000);
RedLockMemory::fail('b569', 'error');
RedLockMemory::fail('c569', 'error');
var_dump($scripted->extend($lock, 60000)); // a569 only: no quorum
RedLockMemory::recover('b569');
RedLockMemory::recover('c569');
RedLockMemory::advance(2000);
$extended = $free->extend($lock, 5000);
var_dump(is_array($extended) && $extended['validity'] > 4000);
$k = $left('k');
var_dump($k[0] > 57000, $k[1] > 4900, $k[2] > 4900); // a569's 58 s left kept, the others written
var_dump(array_filter($free->getLastErrors(), fn ($e) => str_starts_with((string) $e, "not extended"))); // no server said "not extended"

echo "-- renewals\n";
$lost = 0;
$renewing = new RedLock($memory, 0, 1, ['scripts' => false, 'autoExtend' => true,
    'onLoss' => function () use (&$lost) { $lost++; }]);
$held = $renewing->lock('r', 3000);
RedLockMemory::fail('b569', 'error');
RedLockMemory::fail('c569', 'error');
var_dump($scripted->extend($held, 60000));
RedLockMemory::recover('b569');
RedLockMemory::recover('c569');
$renewals = fn () => RedLock::metrics()['renewals'];
$bound = min(20.0, 2.0 * rt_time_scale() * rt_load_scale()); // the renewal thread's round is our CPU work (valgrind, load)
for ($i = 0; $i < 4; $i++) {
    $before = $renewals();
    RedLockMemory::advance(1000); // a renewal is due every 1 s (ttl / 3)
    for ($t = microtime(true); $renewals() === $before && microtime(true) - $t < $bound;) {
        usleep(5000);             // the renewal thread's round on the moved clock, bounded
    }
}
$r = $left('r');
var_dump($r[1] > 0 && $r[2] > 0, $renewing->validity($held) > 0, $lost);
var_dump((new RedLock($memory, 0, 1))->lock('r', 1000)); // no rival wins it
?>
--EXPECT--
bool(false)
bool(true)
bool(true)
bool(true)
bool(true)
array(0) {
}
-- renewals
bool(false)
bool(true)
bool(true)
int(0)
bool(false)
