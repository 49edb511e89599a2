--TEST--
The time spent waiting for the deciding vote is taken off the validity
--EXTENSIONS--
redlock
--FILE--
<?php
require __DIR__ . '/redlock_test.inc';
$slow = rt_spawn_server();
[$held, $free] = rt_servers(2, 5.0);
$key = rt_key();
rt_redis($held[1], 'SET', $key, 'foreign', 'PX', '60000');

// The slow server is paused and resumed 300 ms later; its vote decides the quorum of 2 of 3.
rt_signal($slow, 'STOP');
exec('(sleep 0.3; kill -CONT ' . (int) $slow['pid'] . ') >/dev/null 2>&1 &');
$redlock = new RedLock([$held, ['127.0.0.1', $slow['port'], 5.0], $free], 10, 1);
[$lock, $ms] = rt_timed(fn () => $redlock->lock($key, 10000));
rt_signal($slow, 'CONT'); // in case the lock did not wait for it
var_dump(is_array($lock));
$drift = 10000 * 0.01 + 2;
echo "waited for the slow server: ", var_export($ms >= 250, true), "\n";
echo "validity below ttl - drift - 250 ms: ", var_export($lock['validity'] <= 10000 - $drift - 250, true), "\n";
echo "validity at least ttl - drift - elapsed: ", var_export($lock['validity'] > 10000 - $drift - $ms - 0.001, true), "\n";
var_dump($redlock->unlock($lock));
?>
--EXPECT--
bool(true)
waited for the slow server: true
validity below ttl - drift - 250 ms: true
validity at least ttl - drift - elapsed: true
bool(true)
