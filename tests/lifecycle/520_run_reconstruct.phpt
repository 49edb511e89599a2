--TEST--
run(): re-initializing the object inside its own run() is an Error, so the lock is released through the servers it was taken on
--EXTENSIONS--
redlock
--FILE--
<?php
require __DIR__ . '/../inc/redlock_test.inc';
$key = rt_key();
$servers = rt_servers(5, 3.0);
$r = new RedLock(array_slice($servers, 0, 3), 10, 1);

$result = $r->run($key, 30000, function (array $lock, RedLock $redlock) use ($key, $servers) {
    var_dump(rt_values($key, 3) === array_fill(0, 3, $lock['token']));
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
var_dump(rt_values($key, 3) === [null, null, null]);
var_dump(rt_values($key . ':inner', 3) === [null, null, null]);

// A subclass gets its own name in the message.
class MyLock extends RedLock {}
$m = new MyLock(array_slice($servers, 0, 3));
echo rt_throws(fn () => $m->run($key, 30000, fn ($lock, $redlock) => $redlock->__construct(array_slice($servers, 3, 2)))), "\n";
var_dump(rt_values($key, 3) === [null, null, null]);

// After run() the object may be re-initialized again, also from a fatal-free exception path.
echo rt_throws(fn () => $r->run($key, 30000, fn () => throw new LogicException('x'))), "\n";
$r->__construct(array_slice($servers, 3, 2));
var_dump(count($r->getLastErrors()));
$lock = $r->lock($key, 30000);
var_dump(rt_values($key)[3] === $lock['token'], $r->unlock($lock));
?>
--EXPECT--
bool(true)
Error: Cannot re-initialize RedLock inside its run()
Error: Cannot re-initialize RedLock inside its run()
string(5) "inner"
Error: Cannot re-initialize RedLock inside its run()
int(3)
bool(true)
string(4) "done"
bool(true)
bool(true)
Error: Cannot re-initialize MyLock inside its run()
bool(true)
LogicException: x
int(2)
bool(true)
bool(true)
