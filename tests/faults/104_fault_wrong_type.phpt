--TEST--
Fault: a key of another type (a hash) at the resource: SET NX answers nil (taken), the unlock script reads it through redis.pcall and votes a clean no; the hash is never touched
--EXTENSIONS--
redlock
--FILE--
<?php
require __DIR__ . '/../inc/reliability.inc';
$a = rt_spawn_server();
$b = rt_spawn_server();
$c = rt_spawn_server();
$key = rt_key();
rf_cmd($a['port'], 'HSET', $key, 'field', 'value');

echo "what the servers really answer\n";
var_dump(rf_cmd($a['port'], 'SET', $key, 'x', 'NX', 'PX', '1000'));
$reply = rf_cmd($a['port'], 'EVAL', "return redis.call('GET', KEYS[1])", '1', $key);
var_dump($reply instanceof RuntimeException && str_contains($reply->getMessage(), 'WRONGTYPE'));

echo "1 of 1: taken\n";
$one = new RedLock(rf_list([$a['port']]), 10, 2);
var_dump($one->lock($key, 10000));
var_dump($one->unlock(['resource' => $key, 'token' => str_repeat('a', 32)]));

echo "2 of 3: the others carry the quorum, lock and unlock\n";
$three = new RedLock(rf_list([$a['port'], $b['port'], $c['port']]), 10, 1);
$lock = $three->lock($key, 10000);
var_dump(is_array($lock));
var_dump($three->unlock($lock));
var_dump(rf_cmd($a['port'], 'TYPE', $key), rf_cmd($a['port'], 'HGET', $key, 'field'));
var_dump(rf_cmd($b['port'], 'GET', $key), rf_cmd($c['port'], 'GET', $key));

echo "2 of 3 hold a hash: false\n";
rf_cmd($b['port'], 'HSET', $key, 'field', 'value');
var_dump($three->lock($key, 10000));
var_dump(rf_cmd($c['port'], 'GET', $key));
?>
--EXPECT--
what the servers really answer
NULL
bool(true)
1 of 1: taken
bool(false)
bool(false)
2 of 3: the others carry the quorum, lock and unlock
bool(true)
bool(true)
string(4) "hash"
string(5) "value"
NULL
NULL
2 of 3 hold a hash: false
bool(false)
NULL
