--TEST--
forceUnlock(): deletes a resource's key(s) on every server whoever holds them (an administrative release, as Laravel's forceRelease()), with the object's prefix, for single and multi-resource locks and shared holders; the holder's own unlock() is then false and another client gets the lock at once; waiters are woken; too few servers gives false with the reasons; bad names are a ValueError
--EXTENSIONS--
redlock
pcntl
--FILE--
<?php
require __DIR__ . '/../inc/redlock_test.inc';
$servers = rt_servers(3);
$ports = array_slice(rt_ports(), 0, 3);
$holder = new RedLock($servers, 10, 1);
$admin = new RedLock($servers, 10, 1);
$other = new RedLock($servers, 10, 1);

$key = rt_key('one');
$lock = $holder->lock($key, 60000);
var_dump($admin->forceUnlock($key));
// forceUnlock() returns on a quorum: the last server's DEL may land a moment later (rt_settled)
echo "keys left: ", implode(',', rt_settled(fn () => array_map(fn ($p) => rt_redis($p, 'EXISTS', $key), $ports))), "\n";
var_dump($holder->validity($lock), $holder->unlock($lock));
$taken = $other->lock($key, 1000);
var_dump(is_array($taken) && $other->unlock($taken));

echo "multi-resource, with a prefix on both objects\n";
$a = rt_key('a');
$b = rt_key('b');
$prefixed = new RedLock($servers, 10, 1, ['prefix' => 'px:']);
$prefixedAdmin = new RedLock($servers, 10, 1, ['prefix' => 'px:']);
$multi = $prefixed->lock([$a, $b], 60000);
// both keys on every server that voted (a quorum at least: a loaded server may have missed its vote)
$keysOnServers = fn () => array_sum(array_map(fn ($p) => rt_redis($p, 'EXISTS', "px:$a", "px:$b"), $ports));
var_dump($admin->forceUnlock([$a, $b])); // no prefix: other keys, nothing of ours deleted
var_dump($keysOnServers() >= 2 * intdiv(count($ports), 2) + 2);
var_dump($prefixedAdmin->forceUnlock([$a, $b]));
var_dump(rt_settled($keysOnServers) === 0, $prefixed->unlock($multi));

echo "shared holders\n";
$s = rt_key('shared');
$reader1 = $holder->lockShared($s, 60000);
$reader2 = $other->lockShared($s, 60000);
var_dump($admin->forceUnlock($s), $holder->validity($reader1), is_array($taken = $admin->lock($s, 1000)));
$admin->unlock($taken);

echo "nothing held: still true (the servers ran it)\n";
var_dump($admin->forceUnlock(rt_key('none')));

echo "a waiter is woken by it\n";
$w = rt_key('wait');
$held = $holder->lock($w, 60000);
$pid = pcntl_fork();
if ($pid === 0) {
    usleep(300000);
    (new RedLock($servers, 10, 1))->forceUnlock($w);
    posix_kill(getmypid(), SIGKILL);
}
$waiter = new RedLock($servers, 60000, 0, ['waitTimeout' => 5000]);
$t = microtime(true);
$got = $waiter->lock($w, 1000);
pcntl_waitpid($pid, $status);
// woken: 0.3 s and the child's own work (valgrind, load: scaled, at most 4 s); not woken: its waitTimeout, 5 s
$woken = min(4.0, rt_time_scale() * rt_load_scale());
echo "waiter got it: ", var_export(is_array($got), true), ", woken before its waitTimeout: ", var_export(microtime(true) - $t < $woken, true), "\n";

echo "two of three servers refusing\n";
$down = new RedLock([$servers[0], ['127.0.0.1', 1, 0.2], ['127.0.0.1', 9, 0.2]], 10, 1);
var_dump($down->forceUnlock(rt_key('down')));
echo json_encode(array_map(fn ($e) => explode(':', $e)[0], array_slice($down->getLastErrors(), 1))), "\n";

echo "bad names\n";
foreach (['', [], [1 => 'x'], ['x', 'x']] as $bad) {
    echo rt_throws(fn () => $admin->forceUnlock($bad)), "\n";
}
?>
--EXPECT--
bool(true)
keys left: 0,0,0
bool(false)
bool(false)
bool(true)
multi-resource, with a prefix on both objects
bool(true)
bool(true)
bool(true)
bool(true)
bool(false)
shared holders
bool(true)
bool(false)
bool(true)
nothing held: still true (the servers ran it)
bool(true)
a waiter is woken by it
waiter got it: true, woken before its waitTimeout: true
two of three servers refusing
bool(false)
["connect","connect"]
bad names
ValueError: RedLock::forceUnlock(): Argument #1 ($resource) must not be empty
ValueError: RedLock::forceUnlock(): Argument #1 ($resource) must not be an empty array
ValueError: RedLock::forceUnlock(): Argument #1 ($resource) must be a list of resource names
ValueError: RedLock::forceUnlock(): Argument #1 ($resource) must not contain the resource "x" twice
