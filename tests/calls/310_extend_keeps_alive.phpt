--TEST--
extend() keeps the key alive past the original ttl and returns the lock with a fresh validity
--EXTENSIONS--
redlock
--FILE--
<?php
require __DIR__ . '/../inc/redlock_test.inc';
$key = rt_key();
$r = new RedLock(rt_servers(5, 3.0));
$lock = $r->lock($key, 300);
$extended = $r->extend($lock, 3000);
var_dump(array_keys($extended));
var_dump($extended['resource'] === $key, $extended['token'] === $lock['token']);
// ttl - elapsed - drift (0.01 * 3000 + 2 = 32)
var_dump($extended['validity'] > 2000 && $extended['validity'] <= 3000 - 32);
var_dump(rt_eventually(fn () => min(rt_pttls($key)) > 300));

usleep(600000); // well past the original 300 ms
var_dump(rt_values_are($key, array_fill(0, 5, $lock['token'])));
var_dump((new RedLock(rt_servers(5, 3.0), 10, 1))->lock($key, 1000));
// The extended lock (or the original array: same token) still unlocks.
var_dump($r->unlock($extended), rt_eventually(fn () => rt_values($key) === array_fill(0, 5, null)));

// Bad arguments are rejected before any server is asked.
echo rt_throws(fn () => $r->extend($lock, 0)), "\n";
echo rt_throws(fn () => $r->extend(['resource' => $key], 1000)), "\n";
echo rt_throws(fn () => $r->extend(['resource' => 5, 'token' => 'x'], 1000)), "\n";
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
bool(true)
bool(false)
bool(true)
bool(true)
ValueError: RedLock::extend(): Argument #2 ($ttl) must be greater than 0
ValueError: RedLock::extend(): Argument #1 ($lock) must contain the key "token"
TypeError: RedLock::extend(): Argument #1 ($lock) ["resource"] must be of type array|string, int given
