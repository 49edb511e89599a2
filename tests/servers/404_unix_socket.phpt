--TEST--
Unix socket servers: unix:// URI with db and timeout, [path, port, timeout] list and keyed array
--EXTENSIONS--
redlock
--FILE--
<?php
require __DIR__ . '/../inc/redlock_test.inc';
$srv = rt_spawn_unix_server();
$socket = $srv['socket'];
$key = rt_key();
// Generous timeouts: under valgrind (run-tests -m) the private redis-server runs under it too.

$uri = new RedLock(["unix://$socket?db=2&timeout=5"], 10, 1);
$lock = $uri->lock($key, 10000);
var_dump($lock !== false, rt_redis_db($srv['port'], 2, 'GET', $key) === $lock['token'], rt_redis($srv['port'], 'GET', $key));
var_dump($uri->unlock($lock), rt_redis_db($srv['port'], 2, 'GET', $key));
var_dump($uri);

$list = new RedLock([[$socket, 0, 5.0]], 10, 1);
$lock = $list->lock($key, 10000);
var_dump(rt_redis($srv['port'], 'GET', $key) === $lock['token'], $list->unlock($lock));

$keyed = new RedLock([['host' => $socket, 'database' => 5, 'timeout' => 5]], 10, 1);
$lock = $keyed->lock($key, 10000);
var_dump(rt_redis_db($srv['port'], 5, 'GET', $key) === $lock['token'], $keyed->unlock($lock));

$missing = new RedLock(["unix://$socket.missing"], 10, 1);
var_dump($missing->lock($key, 1000));
echo $missing->getLastErrors()[0], "\n";
?>
--EXPECTF--
bool(true)
bool(true)
NULL
bool(true)
NULL
object(RedLock)#%d (1) {
  ["servers"]=>
  array(1) {
    [0]=>
    string(%d) "unix://%s.sock?db=2"
  }
}
bool(true)
bool(true)
bool(true)
bool(true)
bool(false)
connect: No such file or directory
