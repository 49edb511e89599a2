--TEST--
A second constructor call is an Error (Cannot call constructor twice), inside run() or not: the lock is released through the servers it was taken on, and the object keeps them
--EXTENSIONS--
redlock
--FILE--
<?php
require __DIR__ . '/../inc/redlock_test.inc';
$key = rt_key();
$servers = rt_servers(5, 3.0);
$r = new RedLock(array_slice($servers, 0, 3), 10, 1);

$result = $r->run($key, 30000, function (array $lock, RedLock $redlock) use ($key, $servers) {
    var_dump(rt_values_are($key, array_fill(0, 3, $lock['token']), 3));
    // Another cluster (servers #3 and #4) in the middle of the run: refused, nothing changed.
    echo rt_throws(fn () => $redlock->__construct(array_slice($servers, 3, 2))), "\n";
    // Even with arguments that would fail anyway, the state error comes first.
    echo rt_throws(fn () => $redlock->__construct([])), "\n";
    // A nested run() on the same object is fine; its own end does not lift the guard.
    var_dump($redlock->run($key . ':inner', 30000, fn () => 'inner'));
    echo rt_throws(fn () => $redlock->__construct(array_slice($servers, 3, 2))), "\n";
    // The object still talks to its own 3 servers.
    var_dump(count($redlock->getLastErrors()), $redlock->validity($lock) > 20000);
    return 'done';
});
var_dump($result);
// Released on the 3 servers it was taken on, at once (the ttl is 30 s).
var_dump(rt_values_are($key, [null, null, null], 3));
var_dump(rt_values_are($key . ':inner', [null, null, null], 3));

// A subclass too.
class MyLock extends RedLock {}
$m = new MyLock(array_slice($servers, 0, 3));
echo rt_throws(fn () => $m->run($key, 30000, fn ($lock, $redlock) => $redlock->__construct(array_slice($servers, 3, 2)))), "\n";
var_dump(rt_values_are($key, [null, null, null], 3));

// After run() too: the object keeps its 3 servers for good.
echo rt_throws(fn () => $r->run($key, 30000, fn () => throw new LogicException('x'))), "\n";
echo rt_throws(fn () => $r->__construct(array_slice($servers, 3, 2))), "\n";
var_dump(count($r->getLastErrors()));
$lock = $r->lock($key, 30000);
var_dump(rt_values_are($key, array_fill(0, 3, $lock['token']), 3), $r->unlock($lock));
// A constructor that threw left the object unconstructed: it may be called again.
$u = (new ReflectionClass(RedLock::class))->newInstanceWithoutConstructor();
echo rt_throws(fn () => $u->__construct([])), "\n";
$u->__construct(array_slice($servers, 3, 2));
var_dump(count($u->getLastErrors()));
echo rt_throws(fn () => $u->__construct(array_slice($servers, 0, 3))), "\n";
?>
--EXPECTF--
bool(true)
Error: Cannot call constructor twice
Error: Cannot call constructor twice
string(5) "inner"
Error: Cannot call constructor twice
int(3)
bool(true)
string(4) "done"
bool(true)
bool(true)
Error: Cannot call constructor twice
bool(true)
LogicException: x
Error: Cannot call constructor twice
int(3)
bool(true)
bool(true)
ValueError: %s
int(2)
Error: Cannot call constructor twice
