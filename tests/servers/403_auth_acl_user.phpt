--TEST--
ACL user: AUTH user pass on connect (URI and keyed array); the user's key pattern is enforced, proving which user was used; wrong user password gives WRONGPASS
--EXTENSIONS--
redlock
--FILE--
<?php
require __DIR__ . '/../inc/redlock_test.inc';
$srv = rt_spawn_server();
$port = $srv['port'];
var_dump(rt_redis($port, 'ACL', 'SETUSER', 'alice', 'on', '>p@ss:w/rd', '~alice:*', '+@all'));
$mine = 'alice:' . rt_key();
$other = 'bob:' . rt_key();

$alice = new RedLock(['redis://alice:p@ss:w%2Frd@127.0.0.1:' . $port], 10, 1);
$lock = $alice->lock($mine, 10000);
var_dump($lock !== false, rt_redis($port, 'GET', $mine) === $lock['token'], $alice->unlock($lock));

var_dump($alice->lock($other, 10000));
echo $alice->getLastErrors()[0], "\n";
var_dump(rt_redis($port, 'GET', $other));

$keyed = new RedLock([['host' => '127.0.0.1', 'port' => $port, 'username' => 'alice', 'password' => 'p@ss:w/rd']], 10, 1);
$lock = $keyed->lock($mine, 10000);
var_dump($lock !== false, $keyed->unlock($lock));

$wrong = new RedLock([['host' => '127.0.0.1', 'port' => $port, 'username' => 'alice', 'password' => 'nope-nope']], 10, 1);
var_dump($wrong->lock($mine, 10000));
echo $wrong->getLastErrors()[0], "\n";
ob_start();
var_dump($alice, $keyed, $wrong);
print_r($keyed);
$seen = ob_get_clean() . implode(',', $wrong->getLastErrors());
var_dump(str_contains($seen, 'p@ss'), str_contains($seen, 'nope-nope'), str_contains($seen, 'alice'));
?>
--EXPECTF--
string(2) "OK"
bool(true)
bool(true)
bool(true)
bool(false)
NOPERM %s
NULL
bool(true)
bool(true)
bool(false)
WRONGPASS invalid username-password pair or user is disabled.
bool(false)
bool(false)
bool(false)
