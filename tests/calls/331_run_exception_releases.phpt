--TEST--
run(): an exception from $fn propagates unchanged after the lock is released on every server
--EXTENSIONS--
redlock
--FILE--
<?php
require __DIR__ . '/../inc/redlock_test.inc';
$key = rt_key();
$r = new RedLock(rt_servers(5, 3.0));
$thrown = new DomainException('work failed', 7);
try {
    $r->run($key, 10000, function ($lock) use ($key, $thrown) {
        var_dump(rt_eventually(fn () => rt_values($key)[0] === $lock['token']));
        throw $thrown;
    });
} catch (DomainException $e) {
    var_dump($e === $thrown, $e->getPrevious());
}
var_dump(rt_eventually(fn () => rt_values($key) === array_fill(0, 5, null)));

// The release failing (here: the lock was stolen meanwhile) never masks the exception.
try {
    $r->run($key, 10000, function ($lock) use ($key) {
        rt_del($key);
        throw new LogicException('still this one');
    });
} catch (LogicException $e) {
    echo get_class($e), ': ', $e->getMessage(), "\n";
}
// Errors too.
try {
    $r->run($key, 10000, fn () => intdiv(1, 0));
} catch (DivisionByZeroError $e) {
    echo get_class($e), "\n";
}
var_dump(rt_eventually(fn () => rt_values($key) === array_fill(0, 5, null)));
// And the object still works afterwards.
var_dump($r->run($key, 1000, fn () => 'again'));
?>
--EXPECT--
bool(true)
bool(true)
NULL
bool(true)
LogicException: still this one
DivisionByZeroError
bool(true)
string(5) "again"
