--TEST--
extend(), validity(), unlock() and multi-resource locks fall back to EVAL after SCRIPT FLUSH
--EXTENSIONS--
redlock
--FILE--
<?php
require __DIR__ . '/../inc/redlock_test.inc';
$server = rt_spawn_server();
$port = $server['port'];
$key = rt_key();
$r = new RedLock([['127.0.0.1', $port, 1.0]]);
$lock = $r->lock($key, 5000);            // connects: the greeting loads the scripts
var_dump(is_array($lock));
rt_redis($port, 'SCRIPT', 'FLUSH');
var_dump(rt_redis($port, 'SCRIPT', 'EXISTS', sha1(
    "for i = 1, #KEYS do\n    if redis.call('GET', KEYS[i]) ~= ARGV[1] then\n        return 0\n    end\nend\n"
    . "for i = 1, #KEYS do\n    redis.call('PEXPIRE', KEYS[i], ARGV[2])\nend\nreturn 1\n")));
var_dump(is_array($r->extend($lock, 20000)), rt_redis($port, 'PTTL', $key) > 10000);
rt_redis($port, 'SCRIPT', 'FLUSH');
var_dump($r->validity($lock) > 10000);
rt_redis($port, 'SCRIPT', 'FLUSH');
var_dump($r->unlock($lock), rt_redis($port, 'GET', $key));
rt_redis($port, 'SCRIPT', 'FLUSH');
$multi = $r->lock([$key, rt_key('b')], 5000);
var_dump(is_array($multi), rt_redis($port, 'GET', rt_key('b')) === $multi['token']);
rt_redis($port, 'SCRIPT', 'FLUSH');
var_dump($r->unlock($multi), rt_redis($port, 'EXISTS', $key, rt_key('b')));
?>
--EXPECT--
bool(true)
array(1) {
  [0]=>
  int(0)
}
bool(true)
bool(true)
bool(true)
bool(true)
NULL
bool(true)
bool(true)
bool(true)
int(0)
