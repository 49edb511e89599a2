--TEST--
unlock() with a lock that expired and was taken by another client leaves the new owner alone
--EXTENSIONS--
redlock
--FILE--
<?php
require __DIR__ . '/../inc/redlock_test.inc';
$key = rt_key();
$a = new RedLock(rt_servers(5, 2.0), 10, 1);
$b = new RedLock(rt_servers(5, 2.0), 10, 1);
// Connect first, so that the short ttl below is not spent on connecting (e.g. under valgrind).
foreach ([$a, $b] as $r) {
    $r->unlock($r->lock(rt_key('warm-up'), 10000));
}

$stale = $a->lock($key, 300);
var_dump(is_array($stale));
usleep(450000);
$fresh = $b->lock($key, 10000);
var_dump(is_array($fresh));
var_dump(rt_eventually(fn () => rt_values($key) === array_fill(0, 5, $fresh['token'])));

var_dump($a->unlock($stale)); // not ours any more: false, and nothing deleted
usleep(100000); // let any script still in flight run
var_dump(rt_values_are($key, array_fill(0, 5, $fresh['token'])));
var_dump($b->lock($key, 10000)); // still held by B

// A forged token of the right shape does not release it either.
var_dump($a->unlock(['resource' => $key, 'token' => str_repeat('0', strlen($fresh['token']))]));
usleep(100000);
var_dump(rt_values_are($key, array_fill(0, 5, $fresh['token'])));

var_dump($b->unlock($fresh));
var_dump(rt_eventually(fn () => rt_values($key) === array_fill(0, 5, null)));
?>
--EXPECT--
bool(true)
bool(true)
bool(true)
bool(false)
bool(true)
bool(false)
bool(false)
bool(true)
bool(true)
bool(true)
