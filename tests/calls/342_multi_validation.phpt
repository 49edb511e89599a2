--TEST--
Multi-resource arguments: a non-empty list of distinct non-empty strings, errors naming the argument
--EXTENSIONS--
redlock
--FILE--
<?php
require __DIR__ . '/../inc/redlock_test.inc';
$r = new RedLock(rt_servers(5, 3.0), 10, 1);
$k = rt_key();
$bad = [
    'empty list' => [],
    'empty name' => [$k, ''],
    'duplicate' => ['dup', 'x', 'dup'],
    'not a list' => ['first' => $k],
    'holes' => [1 => $k],
    'int name' => [$k, 5],
    'nested' => [$k, ['y']],
];
foreach ($bad as $name => $resource) {
    echo str_pad($name, 12), rt_throws(fn () => $r->lock($resource, 1000)), "\n";
}
echo rt_throws(fn () => $r->run([], 1000, fn () => 1)), "\n";
echo rt_throws(fn () => $r->unlock(['resource' => ['a', 'a'], 'token' => 'x'])), "\n";
echo rt_throws(fn () => $r->extend(['resource' => [], 'token' => 'x'], 10)), "\n";
echo rt_throws(fn () => $r->validity(['resource' => [1], 'token' => 'x'])), "\n";
echo rt_throws(fn () => $r->lock($k, 0)), "\n";
// Drop-in: a scalar resource is still coerced to a string as before.
$number = random_int(10 ** 12, 10 ** 15); // unique to this run, like rt_key()
$lock = $r->lock($number, 1000);
var_dump($lock['resource'] === (string) $number, $r->unlock($lock));
// References inside the list are fine; the returned resource is a plain list.
$name = rt_key('ref');
$list = [&$name];
$lock = $r->lock($list, 1000);
var_dump($lock['resource'] === [$name], $r->unlock($lock));
?>
--EXPECT--
empty list  ValueError: RedLock::lock(): Argument #1 ($resource) must not be an empty array
empty name  ValueError: RedLock::lock(): Argument #1 ($resource) must not contain an empty resource name
duplicate   ValueError: RedLock::lock(): Argument #1 ($resource) must not contain the resource "dup" twice
not a list  ValueError: RedLock::lock(): Argument #1 ($resource) must be a list of resource names
holes       ValueError: RedLock::lock(): Argument #1 ($resource) must be a list of resource names
int name    TypeError: RedLock::lock(): Argument #1 ($resource) must contain only strings, int given
nested      TypeError: RedLock::lock(): Argument #1 ($resource) must contain only strings, array given
ValueError: RedLock::run(): Argument #1 ($resource) must not be an empty array
ValueError: RedLock::unlock(): Argument #1 ($lock) ["resource"] must not contain the resource "a" twice
ValueError: RedLock::extend(): Argument #1 ($lock) ["resource"] must not be an empty array
TypeError: RedLock::validity(): Argument #1 ($lock) ["resource"] must contain only strings, int given
ValueError: RedLock::lock(): Argument #2 ($ttl) must be greater than 0
bool(true)
bool(true)
bool(true)
bool(true)
