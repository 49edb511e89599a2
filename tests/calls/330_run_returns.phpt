--TEST--
run(): calls $fn($lock, $redlock) while holding the lock, returns its result, releases afterwards
--EXTENSIONS--
redlock
--FILE--
<?php
require __DIR__ . '/../inc/redlock_test.inc';
$key = rt_key();
$r = new RedLock(rt_servers(5, 3.0));
$result = $r->run($key, 2000, function (array $lock, RedLock $redlock) use ($key, $r) {
    var_dump(array_keys($lock), $lock['resource'] === $key, $redlock === $r);
    var_dump(rt_eventually(fn () => rt_values($key) === array_fill(0, 5, $lock['token'])));
    // Long work renews the lock from inside.
    $lock = $redlock->extend($lock, 10000);
    var_dump(rt_eventually(fn () => min(rt_pttls($key)) > 2000));
    return ['answer' => 42];
});
var_dump($result);
var_dump(rt_eventually(fn () => rt_values($key) === array_fill(0, 5, null)));
// null comes back as null.
var_dump($r->run($key, 1000, fn () => null));
// Multi-resource.
$names = [rt_key('a'), rt_key('b')];
var_dump($r->run($names, 1000, fn ($lock) => $lock['resource'] === $names && rt_eventually(fn () => rt_values($names[1])[4] === $lock['token'])));
var_dump(rt_eventually(fn () => rt_values($names[0]) === array_fill(0, 5, null)));
// Argument checks.
echo rt_throws(fn () => $r->run($key, 0, fn () => 1)), "\n";
echo rt_throws(fn () => $r->run('', 10, fn () => 1)), "\n";
echo rt_throws(fn () => $r->run($key, 10, 'no_such_function')), "\n";
?>
--EXPECT--
array(3) {
  [0]=>
  string(8) "validity"
  [1]=>
  string(8) "resource"
  [2]=>
  string(5) "token"
}
bool(true)
bool(true)
bool(true)
bool(true)
array(1) {
  ["answer"]=>
  int(42)
}
bool(true)
NULL
bool(true)
bool(true)
ValueError: RedLock::run(): Argument #2 ($ttl) must be greater than 0
ValueError: RedLock::run(): Argument #1 ($resource) must not be empty
TypeError: RedLock::run(): Argument #3 ($fn) must be a valid callback, function "no_such_function" not found or invalid function name
