--TEST--
The script-free ttl rule where extend() itself learns NOPERM (issue 33, item 6: the rule in every path that can learn it): scripts revoked by ACL SETUSER while a lock is held; the next extend() with another ttl learns NOPERM from its EVAL and then refuses the ttl (a ValueError naming the ttl the lock was taken with), sending no native command that would set another expiry; the lock's keys keep their ttl
--EXTENSIONS--
redlock
--FILE--
<?php
require __DIR__ . '/../inc/redlock_test.inc';
$ports = array_slice(rt_ports(), 0, 3);
$password = 'pw-' . bin2hex(random_bytes(6));
foreach ($ports as $p) {
    rt_redis($p, 'ACL', 'SETUSER', 'h571', 'reset', 'on', ">$password", '~*', '&*', '+@all');
}
$servers = array_map(fn ($p) => ['host' => '127.0.0.1', 'port' => $p, 'timeout' => 1.0, 'username' => 'h571',
    'password' => $password], $ports);
$key = rt_key('h571');
$r = new RedLock($servers, 0, 1);
$lock = $r->lock($key, 10000);
var_dump(is_array($lock));
foreach ($ports as $p) {
    rt_redis($p, 'ACL', 'SETUSER', 'h571', '-@scripting'); // revoked mid-hold
}
try {
    var_dump($r->extend($lock, 60000));
} catch (ValueError $e) {
    echo preg_replace('/\(\d+ ms/', '(N ms', $e->getMessage()), "\n";
}
// no command set another expiry: every key still within the lock's own 10 s
var_dump(array_map(fn ($p) => ($t = rt_redis($p, 'PTTL', $key)) > 0 && $t <= 10000, $ports));
rt_del($key);
foreach ($ports as $p) {
    rt_redis($p, 'ACL', 'DELUSER', 'h571');
}
?>
--EXPECT--
bool(true)
RedLock::extend(): Argument #2 ($ttl) must be the ttl the lock was taken with (N ms, carried by ["token"]) when scripts are not used (the servers answered NOPERM): a command with another ttl could cut the lock short for its other holders
array(3) {
  [0]=>
  bool(true)
  [1]=>
  bool(true)
  [2]=>
  bool(true)
}
