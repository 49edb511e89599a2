--TEST--
Fault: SCRIPT FLUSH between lock and unlock: the release is an EVAL and needs no cached script; every server releases, even the one answering after the quorum
--EXTENSIONS--
redlock
--FILE--
<?php
require __DIR__ . '/../inc/reliability.inc';
$a = rt_spawn_server();
$b = rt_spawn_server();
$c = rt_spawn_server();
$ports = [$a['port'], $b['port'], $c['port']];

echo "1 of 1\n";
$one = new RedLock(rf_list([$a['port']]), 10, 1);
$key = rt_key('one');
$lock = $one->lock($key, 10000);
var_dump(rf_cmd($a['port'], 'SCRIPT', 'FLUSH'));
var_dump($one->unlock($lock), rf_cmd($a['port'], 'GET', $key));

echo "3 of 3 flushed\n";
$redlock = new RedLock(rf_list($ports), 10, 1);
$key = rt_key('three');
$lock = $redlock->lock($key, 10000);
foreach ($ports as $p) {
    rf_cmd($p, 'SCRIPT', 'FLUSH');
}
var_dump($redlock->unlock($lock));
/* unlock() returns once a quorum released; the last server's reply may still be on its way */
$deadline = microtime(true) + 2.0;
while (($left = count(array_filter(array_map(fn ($p) => rf_cmd($p, 'GET', $key), $ports)))) > 0 && microtime(true) < $deadline) {
    usleep(10000);
}
echo "keys left: $left\n";

echo "flushed on one server, where someone else holds the key\n";
$key = rt_key('other');
$lock = $redlock->lock($key, 10000);
rf_cmd($a['port'], 'SCRIPT', 'FLUSH');
rf_cmd($a['port'], 'SET', $key, 'someone-else');
var_dump($redlock->unlock($lock));
var_dump(array_map(fn ($p) => rf_cmd($p, 'GET', $key), $ports));

echo "flushed everywhere, forged token: nothing deleted\n";
$key = rt_key('forged');
foreach ($ports as $p) {
    rf_cmd($p, 'SCRIPT', 'FLUSH');
    rf_cmd($p, 'SET', $key, 'held');
}
var_dump($redlock->unlock(['resource' => $key, 'token' => str_repeat('0', 32)]));
var_dump(array_map(fn ($p) => rf_cmd($p, 'GET', $key), $ports));
?>
--EXPECT--
1 of 1
string(2) "OK"
bool(true)
NULL
3 of 3 flushed
bool(true)
keys left: 0
flushed on one server, where someone else holds the key
bool(true)
array(3) {
  [0]=>
  string(12) "someone-else"
  [1]=>
  NULL
  [2]=>
  NULL
}
flushed everywhere, forged token: nothing deleted
bool(false)
array(3) {
  [0]=>
  string(4) "held"
  [1]=>
  string(4) "held"
  [2]=>
  string(4) "held"
}
