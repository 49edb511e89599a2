--TEST--
Two servers of 3 with nothing listening: lock() returns false (no exception, no warning) and leaves nothing behind
--EXTENSIONS--
redlock
--FILE--
<?php
require __DIR__ . '/../inc/redlock_test.inc';
$key = rt_key();
/* Bounds on round trips scale with the load per core (rt_load_scale(): 1 on a machine no busier than its cores, where
 * the test is as it was, up to 5), and so do the timeouts they are set against: a call that waits for one still
 * takes longer than its bound at every scale. */
$s = rt_load_scale();
[$live] = rt_servers(1, 3.0);
$servers = [['127.0.0.1', rt_free_port(), 3.0 * $s], $live, ['127.0.0.1', rt_free_port(), 3.0 * $s]];

$redlock = new RedLock($servers, 10, 1);
[$lock, $ms] = rt_timed(fn () => $redlock->lock($key, 10000));
var_dump($lock, $ms < 1500 * $s); // a refused connect must not cost the 3 s timeout
usleep(50000);
var_dump(rt_eventually(fn () => rt_values($key, 1) === [null])); // the one SET that won was released

// With the default retries it still ends in false, after its retries only.
$redlock = new RedLock($servers);
[$lock, $ms] = rt_timed(fn () => $redlock->lock($key, 10000));
var_dump($lock, $ms < 3000 * $s); // 2 pauses of 100..200 ms, not 3 timeouts
var_dump($redlock->unlock(['resource' => $key, 'token' => str_repeat('a', 32)]));

// Every server dead: still a plain false.
$redlock = new RedLock([['127.0.0.1', rt_free_port(), 1.0], ['127.0.0.1', rt_free_port(), 1.0]], 10, 2);
var_dump($redlock->lock($key, 10000));
usleep(50000);
var_dump(rt_eventually(fn () => rt_values($key, 1) === [null]));
echo "done\n";
?>
--EXPECT--
bool(false)
bool(true)
bool(true)
bool(false)
bool(true)
bool(false)
bool(false)
bool(true)
done
