--TEST--
A database other than 0: the lock lands in that database on every server (URI path and keyed array); a database the server lacks fails the vote with its error
--EXTENSIONS--
redlock
--FILE--
<?php
require __DIR__ . '/../inc/redlock_test.inc';
$key = rt_key();
$db3 = fn () => array_map(fn ($p) => rt_redis_db($p, 3, 'GET', $key), rt_ports());

$redlock = new RedLock(array_map(fn ($p) => "redis://127.0.0.1:$p/3?timeout=0.5", rt_ports()));
$lock = $redlock->lock($key, 10000);
var_dump($db3() === array_fill(0, 5, $lock['token']), rt_values_are($key, array_fill(0, 5, null)));
var_dump((new RedLock(rt_servers()))->lock($key, 10000) !== false); // db 0 is a different keyspace
rt_del($key);
var_dump((new RedLock(array_map(fn ($p) => ['host' => '127.0.0.1', 'port' => $p, 'database' => 3], rt_ports()), 10, 1))->lock($key, 10000));
var_dump($redlock->unlock($lock), $db3() === array_fill(0, 5, null));

$nodb = new RedLock(["redis://127.0.0.1:" . rt_ports()[0] . "/999"], 10, 1);
var_dump($nodb->lock($key, 10000));
echo $nodb->getLastErrors()[0], "\n";
?>
--EXPECT--
bool(true)
bool(true)
bool(true)
bool(false)
bool(true)
bool(true)
bool(false)
ERR DB index is out of range
