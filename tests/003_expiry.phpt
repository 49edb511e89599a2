--TEST--
A lock expires after its ttl on every server: then another client can take it
--EXTENSIONS--
redlock
--FILE--
<?php
require __DIR__ . '/redlock_test.inc';
$key = rt_key();
$a = new RedLock(rt_servers(5, 2.0), 10, 1);
$b = new RedLock(rt_servers(5, 2.0), 10, 1);
// Connect first, so that the short ttl below is not spent on connecting (e.g. under valgrind).
foreach ([$a, $b] as $r) {
    $r->unlock($r->lock(rt_key('warm-up'), 10000));
}

$lock = $a->lock($key, 300);
var_dump(is_array($lock));
// The servers were given the ttl: each key carries an expiry of at most 300 ms.
$expiring = fn () => count(array_filter(array_map(fn ($p) => rt_redis($p, 'PTTL', $key), rt_ports()),
    fn ($t) => $t > 0 && $t <= 300));
var_dump(rt_eventually(fn () => $expiring() === 5, 0.2)); // the SETs beyond the quorum land soon after
var_dump($b->lock($key, 10000)); // still held

usleep(450000);
var_dump(rt_values($key) === array_fill(0, 5, null));
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
