--TEST--
extend(), validity(), unlock() and multi-resource locks send every script as EVAL: SCRIPT FLUSH between calls changes nothing, and no EVALSHA or SCRIPT LOAD ever reaches the server
--EXTENSIONS--
redlock
--FILE--
<?php
require __DIR__ . '/../inc/redlock_test.inc';
$server = rt_spawn_server();
$port = $server['port'];
$key = rt_key();
$r = new RedLock([['127.0.0.1', $port, 1.0]]);
$lock = $r->lock($key, 5000);
var_dump(is_array($lock));
// counted from here: the connection's DELEX/DELIFEQ probes (answered by Redis 8.6 / Valkey 9) are behind us
$connect = (string) rt_redis($port, 'INFO', 'commandstats');
rt_redis($port, 'CONFIG', 'RESETSTAT');
rt_redis($port, 'SCRIPT', 'FLUSH');
var_dump(is_array($r->extend($lock, 20000)), rt_redis($port, 'PTTL', $key) > 10000);
rt_redis($port, 'SCRIPT', 'FLUSH');
var_dump($r->validity($lock) > 10000);
rt_redis($port, 'SCRIPT', 'FLUSH');
var_dump($r->unlock($lock), rt_redis($port, 'GET', $key));
rt_redis($port, 'SCRIPT', 'FLUSH');
$multi = $r->lock([$key, rt_key('b')], 5000);
var_dump(is_array($multi), rt_redis($port, 'GET', rt_key('b')) === $multi['token']);
rt_redis($port, 'SCRIPT', 'FLUSH');
var_dump($r->unlock($multi), rt_settled(fn () => rt_redis($port, 'EXISTS', $key, rt_key('b'))));
$stats = (string) rt_redis($port, 'INFO', 'commandstats');
$calls = fn (string $c) => preg_match('/^cmdstat_' . preg_quote($c, '/') . ':calls=(\d+)/m', $stats, $m) ? (int) $m[1] : 0;
// the single-key unlock is DELEX/DELIFEQ where the server has it (Redis 8.6, Valkey 9), else an EVAL
echo 'on connect, script load: ', preg_match('/^cmdstat_script\|load:/m', $connect), ', evalsha: ', $calls('evalsha'),
    ', eval or native release: ', $calls('eval') + $calls('delex') + $calls('delifeq'), "\n";
?>
--EXPECT--
bool(true)
bool(true)
bool(true)
bool(true)
bool(true)
NULL
bool(true)
bool(true)
bool(true)
int(0)
on connect, script load: 0, evalsha: 0, eval or native release: 5
