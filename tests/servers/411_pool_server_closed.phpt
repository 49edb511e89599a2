--TEST--
Persistent connections: an idle pooled connection the server closed (CLIENT KILL, restart, idle timeout) is noticed at check-out and replaced, not used
--EXTENSIONS--
redlock
--FILE--
<?php
require __DIR__ . '/../inc/redlock_test.inc';
$srv = rt_spawn_server();
$port = $srv['port'];
$key = rt_key();
$mine = rt_redis($port, 'CLIENT', 'ID');

$a = new RedLock(["redis://127.0.0.1:$port"], 10, 1);
var_dump($a->unlock($a->lock($key, 10000)));
unset($a);
$before = rt_pool_stats();
var_dump($before['idle']);
// Kill every client but our helper's link: the pooled connection is closed by the server.
$list = rt_redis($port, 'CLIENT', 'LIST');
preg_match_all('/^id=(\d+) /m', $list, $m);
foreach ($m[1] as $id) {
    if ((int) $id !== $mine) {
        rt_redis($port, 'CLIENT', 'KILL', 'ID', $id);
    }
}
usleep(50000);
$b = new RedLock(["redis://127.0.0.1:$port"], 10, 1);
$lock = $b->lock($key, 10000);
var_dump($lock !== false, $b->getLastErrors(), $b->unlock($lock));
$after = rt_pool_stats();
var_dump($after['discarded'] - $before['discarded'], $after['reused'] - $before['reused']);
?>
--EXPECT--
bool(true)
int(1)
bool(true)
array(1) {
  [0]=>
  NULL
}
bool(true)
int(1)
int(0)
