--TEST--
lock() returns validity/resource/token, a second lock fails, unlock releases on every server
--EXTENSIONS--
redlock
--FILE--
<?php
require __DIR__ . '/../inc/redlock_test.inc';
$key = rt_key();
$redlock = new RedLock(rt_servers());
$lock = $redlock->lock($key, 10000);
var_dump(array_keys($lock), is_float($lock['validity']), $lock['resource'] === $key);
var_dump(strlen($lock['token']) >= 32, preg_match('/^[0-9a-f]+$/', $lock['token']) === 1);
var_dump($lock['validity'] > 9000 && $lock['validity'] <= 10000 - 102);
// lock() returns once a quorum agreed: the last SETs may still be in flight.
var_dump(rt_eventually(fn () => rt_values($key) === array_fill(0, 5, $lock['token'])));
var_dump((new RedLock(rt_servers(), 10, 2))->lock($key, 10000));
var_dump($redlock->unlock($lock));
var_dump(rt_eventually(fn () => rt_values($key) === array_fill(0, 5, null)));
var_dump($redlock->unlock($lock));
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
bool(true)
bool(false)
bool(true)
bool(true)
bool(false)
