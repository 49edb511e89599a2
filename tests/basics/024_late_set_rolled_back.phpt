--TEST--
A SET still unanswered when lock() gives up (server timeout or ttl deadline) is undone once the server gets to it
--EXTENSIONS--
redlock
--FILE--
<?php
require __DIR__ . '/../inc/redlock_test.inc';
$paused = rt_spawn_server();
$free = rt_spawn_server();
[$held] = rt_servers(1, 1.0);

// The vote of the paused server would decide: held (taken) + free (yes) + paused (pending).
/* Bounds on round trips scale with the load per core (rt_load_scale(): 1 on a machine no busier than its cores, where
 * the test is as it was, up to 5), and so do the timeout and ttl they are set against: a call that waits for one still
 * takes longer than its bound at every scale. */
$s = rt_load_scale();
foreach ([['server timeout', 0.2, (int) (5000 * $s)], ['ttl deadline', 5.0 * $s, 300]] as [$case, $timeout, $ttl]) {
    $key = rt_key($case);
    rt_redis($held[1], 'SET', $key, 'foreign', 'PX', '60000');
    rt_signal($paused, 'STOP');
    $redlock = new RedLock([$held, ['127.0.0.1', $paused['port'], $timeout], ['127.0.0.1', $free['port'], 1.0]], 10, 1);
    [$lock, $ms] = rt_timed(fn () => $redlock->lock($key, $ttl));
    echo "$case: ", var_export($lock, true), ", gave up in time: ", var_export($ms < 2000 * $s, true), "\n";
    rt_signal($paused, 'CONT');
    // Once resumed, the server runs our SET and then the release queued behind it. Without the
    // release our token would stay there for the whole ttl.
    var_dump(rt_eventually(fn () => rt_redis($paused['port'], 'GET', $key) === null && rt_redis($free['port'], 'GET', $key) === null, 1.0 * $s));
    var_dump(rt_redis($held[1], 'GET', $key));
    // The object is still usable afterwards.
    rt_redis($held[1], 'DEL', $key);
    $lock = $redlock->lock($key, 10000);
    var_dump(is_array($lock) && $redlock->unlock($lock));
}
?>
--EXPECT--
server timeout: false, gave up in time: true
bool(true)
string(7) "foreign"
bool(true)
ttl deadline: false, gave up in time: true
bool(true)
string(7) "foreign"
bool(true)
