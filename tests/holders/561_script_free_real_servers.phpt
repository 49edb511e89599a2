--TEST--
Script-free calls on real servers without native commands (issue 24, defects 1 and 5), for a user without @scripting: forceUnlock() with 'scripts' => false sends DEL, not EVAL (it was false with NOPERM on every server and the key stayed); validity() of a drop-in object that learnt NOPERM asks the servers with MULTI; GET; PTTL; EXEC (it answered false for a lock it did not track), and says false once another object deleted the keys
--EXTENSIONS--
redlock
--FILE--
<?php
require __DIR__ . '/../inc/redlock_test.inc';
$ports = array_slice(rt_ports(), 0, 3);
$password = 'pw-' . bin2hex(random_bytes(6));
foreach ($ports as $p) {
    rt_redis($p, 'ACL', 'SETUSER', 'h561', 'reset', 'on', ">$password", '~*', '&*', '+@all', '-@scripting');
}
$servers = array_map(fn ($p) => ['host' => '127.0.0.1', 'port' => $p, 'timeout' => 1.0, 'username' => 'h561',
    'password' => $password], $ports);
$exists = fn ($key) => array_sum(array_map(fn ($p) => rt_redis($p, 'EXISTS', $key), $ports));
$gone = fn ($key) => rt_settled(fn () => $exists($key)); // forceUnlock() returns on a quorum

echo "-- forceUnlock() without scripts\n";
$key = rt_key('force');
$holder = new RedLock($servers, 0, 1);
$lock = $holder->lock($key, 10000);
$admin = new RedLock($servers, 0, 1, ['scripts' => false]);
$admin->forceUnlock(rt_key('warm')); // its connections open: the next call's DEL reaches every server
var_dump(is_array($lock), $admin->forceUnlock($key), array_filter($admin->getLastErrors(), fn ($e) => $e !== null && $e !== 'no reply needed'), $gone($key));
$multi = $holder->lock([$key . 'a', $key . 'b'], 10000);
var_dump($admin->forceUnlock([$key . 'a', $key . 'b']), $gone($key . 'a') + $gone($key . 'b'));

echo "-- validity() asks the servers once scripts are refused\n";
$x = new RedLock($servers, 0, 1);
$lock = $x->lock($key, 10000);
$left = $x->validity($lock); // the script meets NOPERM: learnt, asked again as MULTI/GET/PTTL/EXEC
var_dump($left > 9000 && $left <= 10000);
$y = new RedLock($servers, 0, 1, ['scripts' => false]);
$left = $y->validity($lock); // another object, the same lock
var_dump($left > 9000 && $left <= 10000);
$y->forceUnlock($key);
var_dump($x->validity($lock), $y->validity($lock));
foreach ($ports as $p) {
    rt_redis($p, 'ACL', 'DELUSER', 'h561');
}
?>
--EXPECT--
-- forceUnlock() without scripts
bool(true)
bool(true)
array(0) {
}
int(0)
bool(true)
int(0)
-- validity() asks the servers once scripts are refused
bool(true)
bool(true)
bool(false)
bool(false)
