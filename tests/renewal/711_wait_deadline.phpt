--TEST--
waitTimeout: bounded by its deadline whatever the servers do (a majority paused: no reply, no subscription confirmed); retryCount is not what ends the wait (a holder's lock that expires without unlock() is taken by the backoff); waitTimeout 0 makes one attempt
--EXTENSIONS--
redlock
--FILE--
<?php
require __DIR__ . '/../inc/watch.inc';
$key = rt_key();

// Paused servers: lock() returns false once its 1 s wait is over.
[$servers, $spawned] = wt_private_servers(3);
rt_signal($spawned[0], 'STOP');
rt_signal($spawned[1], 'STOP');
$r = new RedLock($servers, 100, 0, ['waitTimeout' => 1000]);
[$lock, $ms] = rt_timed(fn () => $r->lock($key, 10000));
var_dump($lock);
// At its deadline: not a server timeout (0.5 s) later; our own work scaled under valgrind.
echo $ms >= 990 && $ms < 1000 + 200 * rt_time_scale() ? "returned at the 1 s deadline\n" : "took $ms ms\n";
rt_signal($spawned[0], 'CONT');
rt_signal($spawned[1], 'CONT');
unset($r);

// A holder that never unlocks: nothing is published, the backoff finds the key expired. retryCount 0
// would have made a single attempt.
$holder = new RedLock(rt_servers(5), 10, 0);
$held = $holder->lock($key, 500);
$r = new RedLock(rt_servers(5), 50, 0, ['waitTimeout' => 20000]);
$lock = $r->lock($key, 1000);
echo is_array($lock) ? "taken after the holder's lock expired\n" : "not taken\n";
$r->unlock($lock);

// waitTimeout 0: one attempt, as retryCount 0.
$held = $holder->lock($key, 10000);
$r = new RedLock(rt_servers(5), 50, 5, ['waitTimeout' => 0]);
var_dump($r->lock($key, 1000));
echo rt_throws(fn () => $r->run($key, 1000, fn () => 'no')), "\n";
$holder->unlock($held);
// ... which, on new connections and a free resource, gets the lock (it is not cut at its 0 ms deadline).
$cold = new RedLock(rt_servers(5), 50, 5, ['waitTimeout' => 0, 'persistent' => false]);
var_dump(is_array($cold->lock("$key-free", 1000)));
?>
--EXPECTF--
bool(false)
returned at the 1 s deadline
taken after the holder's lock expired
bool(false)
RedLockException: Could not lock the resource "%s" within 1 attempt
bool(true)
