--TEST--
A SIGSTOPped server: a quorum without it is fast; a quorum that needs it costs about its timeout, not more
--EXTENSIONS--
redlock
--FILE--
<?php
require __DIR__ . '/../inc/redlock_test.inc';
$key = rt_key();
$stopped = rt_spawn_server();
rt_signal($stopped, 'STOP');
/* Bounds on round trips scale with the load per core (rt_load_scale(): 1 on a machine no busier than its cores, where
 * the test is as it was, up to 5), and so do the timeouts they are set against: a call that waits for one still
 * takes longer than its bound at every scale. */
$s = rt_load_scale();
[$a, $b, $c] = rt_servers(3, 3.0);
$hung = ['127.0.0.1', $stopped['port'], 3.0 * $s];

// 3 live + 1 stopped: the quorum of 3 comes from the live ones, long before the 3 s timeout.
$redlock = new RedLock([$a, $hung, $b, $c], 10, 1);
[$lock, $ms] = rt_timed(fn () => $redlock->lock($key, 10000));
echo "3 live + stopped: ", is_array($lock) ? 'locked' : 'refused', ", well under the timeout: ", var_export($ms < 1500 * $s, true), "\n";
[$released, $ms] = rt_timed(fn () => $redlock->unlock($lock));
echo "unlock: ", var_export($released, true), ", well under the timeout: ", var_export($ms < 1500 * $s, true), "\n";

// 2 free + 1 foreign-held + 1 stopped (quorum 3): only the stopped server's vote could decide,
// so the call waits for its 1.0 s timeout, then refuses.
$key2 = rt_key('needs-stopped');
rt_redis($a[1], 'SET', $key2, 'foreign', 'PX', '60000');
$redlock = new RedLock([$a, $b, $c, ['127.0.0.1', $stopped['port'], 1.0]], 10, 1);
[$lock, $ms] = rt_timed(fn () => $redlock->lock($key2, 10000));
var_dump($lock);
echo "waited about the timeout: ", var_export($ms >= 900 && $ms < 2500, true), "\n";
usleep(50000);
var_dump(rt_eventually(fn () => rt_values($key2, 3) === ['foreign', null, null]));

// The same with a ttl shorter than the timeout: the call never outlives the ttl.
$key3 = rt_key('short-ttl');
rt_redis($a[1], 'SET', $key3, 'foreign', 'PX', '60000');
$redlock = new RedLock([$a, $b, $c, ['127.0.0.1', $stopped['port'], 5.0 * $s]], 10, 1);
[$lock, $ms] = rt_timed(fn () => $redlock->lock($key3, 300));
var_dump($lock);
echo "ended by the ttl: ", var_export($ms >= 250 && $ms < 2000 * $s, true), "\n";

// With retries, each attempt is bounded the same way.
$redlock = new RedLock([$a, $b, $c, ['127.0.0.1', $stopped['port'], 0.3]], 50, 2);
[$lock, $ms] = rt_timed(fn () => $redlock->lock($key2, 10000));
var_dump($lock);
echo "two bounded attempts: ", var_export($ms >= 500 && $ms < 2500, true), "\n";
rt_del($key2);
rt_del($key3);
?>
--EXPECT--
3 live + stopped: locked, well under the timeout: true
unlock: true, well under the timeout: true
bool(false)
waited about the timeout: true
bool(true)
bool(false)
ended by the ttl: true
bool(false)
two bounded attempts: true
