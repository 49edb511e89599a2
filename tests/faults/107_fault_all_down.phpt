--TEST--
Fault: every server down: lock() and unlock() return false quickly, no exception, no warning
--EXTENSIONS--
redlock
--FILE--
<?php
require __DIR__ . '/../inc/reliability.inc';
/* Bounds on round trips scale with the load per core (rt_load_scale(): 1 on a machine no busier than its cores, where
 * the test is as it was, up to 5), and so do the timeouts they are set against: a call that waits for one still
 * takes longer than its bound at every scale. */
$s = rt_load_scale();
$dead = array_map(fn () => rt_free_port(), range(1, 5));
$key = rt_key();

echo "5 of 5 down, default retries (3 attempts, 200 ms delay)\n";
$redlock = new RedLock(rf_list($dead, 1.0 * $s));
[$lock, $ms] = rt_timed(fn () => $redlock->lock($key, 10000));
var_dump($lock, $ms < 2000 * $s);
[$ok, $ms] = rt_timed(fn () => $redlock->unlock(['resource' => $key, 'token' => str_repeat('a', 32)]));
var_dump($ok, $ms < 1000 * $s);

echo "the same object again (no state left behind)\n";
var_dump($redlock->lock($key, 10000));

echo "1 of 1 down, no retry\n";
$one = new RedLock(rf_list([rt_free_port()], 1.0 * $s), 0, 0);
[$lock, $ms] = rt_timed(fn () => $one->lock($key, 10000));
var_dump($lock, $ms < 500 * $s);

echo "a stopped (SIGSTOP) server counts as down once its timeout passes\n";
$srv = rt_spawn_server();
rt_signal($srv, 'STOP');
$stopped = new RedLock(rf_list([$srv['port']], 0.3), 0, 1);
[$lock, $ms] = rt_timed(fn () => $stopped->lock($key, 10000));
var_dump($lock, $ms >= 250, $ms < 1500 * $s);
rt_signal($srv, 'CONT');
echo "done\n";
?>
--EXPECT--
5 of 5 down, default retries (3 attempts, 200 ms delay)
bool(false)
bool(true)
bool(false)
bool(true)
the same object again (no state left behind)
bool(false)
1 of 1 down, no retry
bool(false)
bool(true)
a stopped (SIGSTOP) server counts as down once its timeout passes
bool(false)
bool(true)
bool(true)
done
