--TEST--
extend() keeps the key alive past the original ttl and returns the lock with a fresh validity
--EXTENSIONS--
redlock
--FILE--
<?php
require __DIR__ . '/../inc/redlock_test.inc';
$key = rt_key();
$r = new RedLock(rt_servers(5, 3.0));
/* lock() and then extend() must both land within the first ttl: 300 ms, and the extension 3000 ms, on a machine no
 * busier than its cores; times its load per core above that (rt_load_scale(), up to 5), where a call can wait for a
 * core that long. The sleep below stays twice the first ttl: a lock that extend() did not keep has expired. */
$scale = rt_load_scale();
$ttl = (int) (300 * $scale);
$ext = (int) (3000 * $scale);
$lock = $r->lock($key, $ttl);
$extended = $r->extend($lock, $ext);
var_dump(array_keys($extended));
var_dump($extended['resource'] === $key, $extended['token'] === $lock['token']);
// ttl - elapsed - drift (0.01 * ttl + 2: 32 for 3000 ms)
var_dump($extended['validity'] > $ext - 1000 * $scale && $extended['validity'] <= $ext - (int) (0.01 * $ext + 2));
var_dump(rt_eventually(fn () => min(rt_pttls($key)) > $ttl));

usleep(2 * $ttl * 1000); // well past the original ttl
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
