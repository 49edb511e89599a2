--TEST--
A held resource cannot be locked again, by another object or by the same one, until it is released
--EXTENSIONS--
redlock
--FILE--
<?php
require __DIR__ . '/../inc/redlock_test.inc';
$key = rt_key();
$a = new RedLock(rt_servers(5, 2.0), 10, 2);
$b = new RedLock(rt_servers(5, 2.0), 10, 2);

$lock = $a->lock($key, 10000);
var_dump(is_array($lock));
var_dump($b->lock($key, 10000));
var_dump($a->lock($key, 10000)); // the same object gets no re-entrant pass either
// The failed attempts (and the releases they sent) left the holder's token in place everywhere.
usleep(100000);
var_dump(rt_eventually(fn () => rt_values($key) === array_fill(0, 5, $lock['token'])));
// Another resource is independent.
$other = $b->lock(rt_key('other'), 10000);
var_dump(is_array($other), $other['token'] !== $lock['token']);

var_dump($a->unlock($lock));
$again = $b->lock($key, 10000);
// unlock() returns once 3 of 5 deleted, so B's SET may still meet A's key on up to 2 servers:
// B then holds a quorum, and A's key is gone everywhere once its deletes land.
$holds = fn () => array_count_values(array_map('strval', rt_values($key)));
var_dump(is_array($again), rt_eventually(fn () => ($holds()[$again['token']] ?? 0) >= 3
    && ($holds()[$again['token']] ?? 0) + ($holds()[''] ?? 0) === 5));
var_dump($b->unlock($again), $b->unlock($other));
?>
--EXPECT--
bool(true)
bool(false)
bool(false)
bool(true)
bool(true)
bool(true)
bool(true)
bool(true)
bool(true)
bool(true)
bool(true)
