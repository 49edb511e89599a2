--TEST--
A lock expires after its ttl on every server: then another client can take it
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

// ttl 1500: long enough for the checks below to run within it even under valgrind.
$lock = $a->lock($key, 1500);
$locked_at = microtime(true);
var_dump(is_array($lock));
// The servers were given the ttl: each key carries an expiry of at most 1500 ms.
$expiring = fn () => count(array_filter(array_map(fn ($p) => rt_redis($p, 'PTTL', $key), rt_ports()),
    fn ($t) => $t > 0 && $t <= 1500));
var_dump(rt_eventually(fn () => $expiring() === 5, 0.5)); // the SETs beyond the quorum land soon after
var_dump($b->lock($key, 10000)); // still held

usleep((int) max(0, ($locked_at + 1.8 - microtime(true)) * 1e6)); // past the ttl
var_dump(rt_values_are($key, array_fill(0, 5, null)));
$taken = $b->lock($key, 10000);
var_dump(is_array($taken), $taken['token'] !== $lock['token']);
var_dump(rt_eventually(fn () => rt_values($key) === array_fill(0, 5, $taken['token'])));
var_dump($b->unlock($taken));
?>
--EXPECT--
bool(true)
bool(true)
bool(false)
bool(true)
bool(true)
bool(true)
bool(true)
bool(true)
