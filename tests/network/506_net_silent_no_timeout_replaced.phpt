--TEST--
Network: a server without a timeout (0) whose connection went silent is reconnected once a call gave up on it, not queued behind forever
--EXTENSIONS--
redlock
pcntl
--FILE--
<?php
/* The open connection to A turns into a blackhole (new connections still work). With timeout 0,
 * the call's own bound (the ttl for lock()) is what A's replies are due by: once a call gave up
 * on them, the next call replaces the connection instead of queueing behind it forever. */
require __DIR__ . '/../inc/faultproxy.inc';
fp_alarm(8);
$a = fp_spawn_server();
$proxy = fp_start([$a['port']]);
$redlock = new RedLock([['127.0.0.1', $proxy['listen'][$a['port']], 0]], 10, 1);
$key = rt_key();

$lock = $redlock->lock("$key-0", 300);
var_dump(is_array($lock) && $redlock->unlock($lock));
fp_set($proxy, $a['port'], 'open', 'mode=blackhole');

[$lock, $ms] = rt_timed(fn () => $redlock->lock("$key-1", 300));
var_dump($lock, $redlock->getLastErrors()[0], $ms < 300 + 300 * fp_time_scale());
$lock = $redlock->lock("$key-2", 300);
echo "next call, on a new connection: ", var_export(is_array($lock), true), ", ",
    var_export($redlock->getLastErrors()[0], true), "\n";
preg_match('/acc=(\d+)/', fp_ctl($proxy, 'STATS'), $m);
echo "connections accepted: $m[1]\n";
?>
--EXPECT--
bool(true)
bool(false)
string(35) "timeout: the call's deadline passed"
bool(true)
next call, on a new connection: true, NULL
connections accepted: 2
