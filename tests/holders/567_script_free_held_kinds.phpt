--TEST--
'scripts' => false sends no Lua for fenced, shared and semaphore lock arrays handed to the object (issue 32, defect 10), for a user without @scripting on Redis 7: a shared holder's validity(), extend() and unlock() are a RedLockException naming the option and the kind, nothing sent (5105392 sent the script: false, NOPERM on every server); a fenced lock's and a semaphore slot's unlock() and extend() go as DELEX / SET IFEQ (no NOPERM among the errors: Redis 7 has neither, so false; Redis 8.4+ and Valkey 9 have both, so they release and extend) and validity() as MULTI GET PTTL EXEC; on memory:// servers, which have the native commands, they release and extend
--EXTENSIONS--
redlock
--FILE--
<?php
require __DIR__ . '/../inc/redlock_test.inc';
$ports = array_slice(rt_ports(), 0, 3);
$password = 'pw-' . bin2hex(random_bytes(6));
foreach ($ports as $p) {
    rt_redis($p, 'ACL', 'SETUSER', 'h567', 'reset', 'on', ">$password", '~*', '&*', '+@all', '-@scripting');
}
$servers = array_map(fn ($p) => ['host' => '127.0.0.1', 'port' => $p, 'timeout' => 1.0, 'username' => 'h567',
    'password' => $password], $ports);
$plain = array_map(fn ($p) => ['127.0.0.1', $p, 1.0], $ports);
$key = rt_key();
// The matrix legs' Redis 8.6 has DELEX and SET IFEQ, Valkey 8.1 SET IFEQ alone, the host's Redis 7.0 neither.
$release = rt_has_command($ports[0], 'DELEX') || rt_has_command($ports[0], 'DELIFEQ');
$extend = rt_has_set_ifeq($ports[0]);
// what a release or an extension without scripts gives: done where the server has the command, false where not
$outcome = fn ($result, bool $native) => ($native ? ($result === true || is_array($result)) : $result === false)
    ? 'as the server allows' : var_export($result, true);
$noperm = fn (RedLock $r) => count(array_filter($r->getLastErrors(), fn ($e) => str_starts_with((string) $e, 'NOPERM')));

$taker = new RedLock($plain, 0, 1);
$fenced = (new RedLock($plain, 0, 1, ['fencing' => true]))->lock("$key:f", 20000);
$shared = $taker->lockShared("$key:s", 20000);
$slot = $taker->lockSemaphore("$key:m", 2, 20000);
var_dump(is_array($fenced), is_array($shared), is_array($slot));

$y = new RedLock($servers, 0, 1, ['scripts' => false]);
echo "-- shared\n";
foreach (['validity' => fn () => $y->validity($shared), 'extend' => fn () => $y->extend($shared, 20000),
    'unlock' => fn () => $y->unlock($shared)] as $call => $fn) {
    echo $call, ': ', rt_throws($fn), "\n";
}
echo "-- fenced, semaphore\n";
foreach (['fenced' => $fenced, 'semaphore' => $slot] as $kind => $lock) {
    $left = $y->validity($lock);
    echo "$kind validity: ", var_export($left > 10000, true), ", NOPERM ", $noperm($y), "\n";
    echo "$kind extend: ", $outcome($y->extend($lock, 20000), $extend), ", NOPERM ", $noperm($y), "\n";
    echo "$kind unlock: ", $outcome($y->unlock($lock), $release), ", NOPERM ", $noperm($y), "\n";
}
foreach ([$fenced, $shared, $slot] as $lock) {
    $taker->unlock($lock);
}
foreach ($ports as $p) {
    rt_redis($p, 'ACL', 'DELUSER', 'h567');
}

echo "-- memory servers\n";
$memory = ['memory://a567', 'memory://b567', 'memory://c567'];
$fenced = (new RedLock($memory, 0, 1, ['fencing' => true]))->lock('f', 20000);
$slot = (new RedLock($memory, 0, 1))->lockSemaphore('m', 2, 20000);
$y = new RedLock($memory, 0, 1, ['scripts' => false]);
foreach (['fenced' => $fenced, 'semaphore' => $slot] as $kind => $lock) {
    $left = $y->validity($lock);
    $extended = $y->extend($lock, 20000);
    echo "$kind: ", var_export($left > 10000, true), ' ', var_export(is_array($extended), true), ' ',
        var_export($y->unlock($lock), true), ' ', var_export($y->validity($lock), true), "\n";
}
echo count(RedLockMemory::keys('a567')), "\n"; // the fence counter alone
?>
--EXPECT--
bool(true)
bool(true)
bool(true)
-- shared
validity: RedLockException: validity() of a shared lock needs Lua scripts on the servers, which "scripts" => false forbids: nothing was sent (docs/guide/script-free.md)
extend: RedLockException: extend() of a shared lock needs Lua scripts on the servers, which "scripts" => false forbids: nothing was sent (docs/guide/script-free.md)
unlock: RedLockException: unlock() of a shared lock needs Lua scripts on the servers, which "scripts" => false forbids: nothing was sent (docs/guide/script-free.md)
-- fenced, semaphore
fenced validity: true, NOPERM 0
fenced extend: as the server allows, NOPERM 0
fenced unlock: as the server allows, NOPERM 0
semaphore validity: true, NOPERM 0
semaphore extend: as the server allows, NOPERM 0
semaphore unlock: as the server allows, NOPERM 0
-- memory servers
fenced: true true true false
semaphore: true true true false
1
