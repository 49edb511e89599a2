--TEST--
NOPERM is learnt by the quorum rule and not for life (issue 32, defect 8): servers A (a user without @scripting), B and C (scripts allowed) paused a moment: validity() gets A's NOPERM and two timeouts; the object keeps its scripts (unlock() true, B's and C's keys gone; 5105392 switched for good: every later unlock() on Redis 7 false, the keys left, lockShared() a RedLockException); then every server refusing: learnt (validity() answers without scripts, unlock() false on Redis 7, which has no DELEX, true where DELEX releases), scripts allowed again: a second later the object asks with scripts again and unlock() is true (on Redis 7, where the lock was still held)
--EXTENSIONS--
redlock
--FILE--
<?php
require __DIR__ . '/../inc/redlock_test.inc';
[$a, $b, $c] = array_slice(rt_ports(), 0, 3);
$password = 'pw-' . bin2hex(random_bytes(6));
$acl = fn ($p, ...$rules) => rt_redis($p, 'ACL', 'SETUSER', 'h566', 'reset', 'on', ">$password", '~*', '&*', '+@all', ...$rules);
$acl($a, '-@scripting');
$acl($b);
$acl($c);
$server = fn ($p) => ['host' => '127.0.0.1', 'port' => $p, 'timeout' => 0.3, 'username' => 'h566', 'password' => $password];
$servers = [$server($a), $server($b), $server($c)];
$key = rt_key();
$held = fn () => implode(' ', array_map(fn ($p) => rt_redis($p, 'EXISTS', $key), [$a, $b, $c]));
$native = rt_has_command($a, 'DELEX'); // the matrix legs' Redis 8.6: what scripts cannot release, DELEX does
// the keys left, and whether that is what the server allows: A's where it refused the script and has no DELEX
$keys = fn (string $redis7, string $withDelex) => ($left = $held()) === ($native ? $withDelex : $redis7)
    ? "keys: as the server allows\n" : "keys: $left\n";

echo "-- A refuses, B and C silent a moment\n";
$x = new RedLock($servers, 0, 1);
$lock = $x->lock($key, 20000);
var_dump(is_array($lock));
$pause = (string) (int) (1000 * min(rt_time_scale(), 4.0)); // past the 0.3 s timeouts, within rt_redis()'s 5 s
rt_redis($b, 'CLIENT', 'PAUSE', $pause, 'ALL');
rt_redis($c, 'CLIENT', 'PAUSE', $pause, 'ALL');
var_dump($x->validity($lock));
$errors = $x->getLastErrors();
echo str_starts_with((string) $errors[0], 'NOPERM') ? "A: NOPERM\n" : "A: {$errors[0]}\n";
echo 'B: ', strtok((string) $errors[1], ':'), ', C: ', strtok((string) $errors[2], ':'), "\n";
rt_redis($b, 'PING'); // waits the pauses out
rt_redis($c, 'PING');
var_dump($x->validity($lock) > 10000);
var_dump($x->unlock($lock));
echo $keys('1 0 0', '0 0 0'); // A refuses the script: its key stays its ttl, unless DELEX releases it
rt_redis($a, 'DEL', $key);
$shared = $x->lockShared("$key:s", 5000);
var_dump(is_array($shared) && $x->unlock($shared));

echo "-- every server refuses: learnt\n";
foreach ([$a, $b, $c] as $p) {
    $acl($p, '-@scripting');
}
$lock = $x->lock($key, 20000);
var_dump($x->validity($lock) > 10000); // the script refused by all, then MULTI GET PTTL EXEC
var_dump($x->unlock($lock) === $native); // DELEX: Redis 7 has none
echo $keys('1 1 1', '0 0 0');

echo "-- scripts allowed again\n";
foreach ([$a, $b, $c] as $p) {
    $acl($p);
}
usleep(1200000); // past the second a learnt NOPERM lasts
var_dump($x->unlock($lock) === !$native); // still held on Redis 7, released by DELEX above otherwise
echo $keys('0 0 0', '0 0 0');
foreach ([$a, $b, $c] as $p) {
    rt_redis($p, 'DEL', $key);
    rt_redis($p, 'ACL', 'DELUSER', 'h566');
}
?>
--EXPECT--
-- A refuses, B and C silent a moment
bool(true)
bool(false)
A: NOPERM
B: timeout, C: timeout
bool(true)
bool(true)
keys: as the server allows
bool(true)
-- every server refuses: learnt
bool(true)
bool(true)
keys: as the server allows
-- scripts allowed again
bool(true)
keys: as the server allows
