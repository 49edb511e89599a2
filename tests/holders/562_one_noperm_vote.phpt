--TEST--
One server refusing scripts (NOPERM) in a call that missed its quorum for another reason does not switch the object to script-free for good (issue 24, suspected): servers A (a user without @scripting), B (scripts allowed), C down; validity() misses its quorum; lockShared() then still sends its script (false, A's NOPERM and C's connect error in getLastErrors()) where f334b16 had switched for good and threw a RedLockException; with A and B both refusing, the object switches as before (the round trip waits for B's reply once A's NOPERM came, so neither verdict depends on the order of the replies)
--EXTENSIONS--
redlock
--FILE--
<?php
require __DIR__ . '/../inc/redlock_test.inc';
[$a, $b] = array_slice(rt_ports(), 0, 2);
$password = 'pw-' . bin2hex(random_bytes(6));
rt_redis($a, 'ACL', 'SETUSER', 'h562', 'reset', 'on', ">$password", '~*', '&*', '+@all', '-@scripting');
rt_redis($b, 'ACL', 'SETUSER', 'h562', 'reset', 'on', ">$password", '~*', '&*', '+@all');
$server = fn ($p) => ['host' => '127.0.0.1', 'port' => $p, 'timeout' => 2.0, 'username' => 'h562', 'password' => $password];
$servers = [$server($a), $server($b), ['host' => '127.0.0.1', 'port' => 1, 'timeout' => 0.5]];
$key = rt_key();

$x = new RedLock($servers, 0, 1);
$lock = $x->lock($key, 10000);
var_dump(is_array($lock), $x->validity($lock));
try {
    var_dump($x->lockShared("$key:s", 1000));
    $errors = $x->getLastErrors();
    echo str_starts_with((string) $errors[0], 'NOPERM') ? "A: NOPERM\n" : "A: {$errors[0]}\n";
    echo str_starts_with((string) $errors[2], 'connect') ? "C: connect\n" : "C: {$errors[2]}\n";
} catch (RedLockException $e) {
    echo get_class($e), ': ', $e->getMessage(), "\n";
}
rt_redis($b, 'DEL', $key);
rt_redis($a, 'DEL', $key);

echo "-- A and B refusing: switched\n";
rt_redis($b, 'ACL', 'SETUSER', 'h562', '-@scripting');
$y = new RedLock($servers, 0, 1);
$lock = $y->lock($key, 10000);
$left = $y->validity($lock);
var_dump($left > 5000); // 10 s less the calls' time (valgrind included)
try {
    $y->lockShared("$key:s", 1000);
} catch (RedLockException $e) {
    echo get_class($e), "\n";
}
foreach ([$a, $b] as $p) {
    rt_redis($p, 'DEL', $key);
    rt_redis($p, 'ACL', 'DELUSER', 'h562');
}
?>
--EXPECT--
bool(true)
bool(false)
bool(false)
A: NOPERM
C: connect
-- A and B refusing: switched
bool(true)
RedLockException
