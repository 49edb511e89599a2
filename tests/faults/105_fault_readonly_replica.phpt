--TEST--
Fault: a read-only replica in the list answers READONLY: a failed vote, no exception
--EXTENSIONS--
redlock
--FILE--
<?php
require __DIR__ . '/../inc/reliability.inc';
$master = rt_spawn_server();
$replica = rt_spawn_server(['--replicaof', '127.0.0.1', (string) $master['port']]);
$a = rt_spawn_server();
$b = rt_spawn_server();
$key = rt_key();

echo "what the replica really answers\n";
$reply = rf_cmd($replica['port'], 'SET', $key, 'x', 'NX', 'PX', '1000');
var_dump($reply instanceof RuntimeException && str_starts_with($reply->getMessage(), 'READONLY'));

echo "1 of 1: false, quickly\n";
$one = new RedLock(rf_list([$replica['port']]), 10, 2);
[$lock, $ms] = rt_timed(fn () => $one->lock($key, 10000));
var_dump($lock, $ms < 2000);

echo "2 of 3: the others carry the quorum\n";
$three = new RedLock(rf_list([$replica['port'], $a['port'], $b['port']]), 10, 1);
$lock = $three->lock($key, 10000);
var_dump(is_array($lock), rf_cmd($replica['port'], 'GET', $key));
var_dump($three->unlock($lock), rf_cmd($a['port'], 'GET', $key), rf_cmd($b['port'], 'GET', $key));

echo "1 of 3 writable: false\n";
$other = rt_spawn_server(['--replicaof', '127.0.0.1', (string) $master['port']]);
$bad = new RedLock(rf_list([$replica['port'], $other['port'], $a['port']]), 10, 1);
var_dump($bad->lock($key, 10000), rf_cmd($a['port'], 'GET', $key));
?>
--EXPECT--
what the replica really answers
bool(true)
1 of 1: false, quickly
bool(false)
bool(true)
2 of 3: the others carry the quorum
bool(true)
NULL
bool(true)
NULL
NULL
1 of 3 writable: false
bool(false)
NULL
