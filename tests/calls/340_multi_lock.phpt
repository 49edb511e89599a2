--TEST--
Multi-resource lock(): all keys at once on every server; unlock/extend/validity accept the lock
--EXTENSIONS--
redlock
--FILE--
<?php
require __DIR__ . '/../inc/redlock_test.inc';
[$a, $b, $c, $d] = [rt_key('a'), rt_key('b'), rt_key('c'), rt_key('d')];
$r = new RedLock(rt_servers(5, 3.0), 10, 1);
$lock = $r->lock([$a, $b, $c], 5000);
var_dump(array_keys($lock), $lock['resource'] === [$a, $b, $c]);
var_dump($lock['validity'] > 4000 && $lock['validity'] <= 5000 - 52);
var_dump(rt_eventually(fn () => rt_values($a) === array_fill(0, 5, $lock['token'])
    && rt_values($b) === rt_values($a) && rt_values($c) === rt_values($a)));

// Any overlap is contention: nothing of the other request is written.
$other = new RedLock(rt_servers(5, 3.0), 10, 1);
var_dump($other->lock([$c, $d], 5000), $other->lock($b, 5000));
var_dump(rt_eventually(fn () => rt_values($d) === array_fill(0, 5, null)));

var_dump(is_array($extended = $r->extend($lock, 20000)), $extended['resource'] === [$a, $b, $c]);
var_dump(rt_eventually(fn () => min(array_merge(rt_pttls($a), rt_pttls($b), rt_pttls($c))) > 5000));
var_dump($r->validity($lock) > 15000);
var_dump($r->unlock($lock));
var_dump(rt_eventually(fn () => array_merge(rt_values($a), rt_values($b), rt_values($c)) === array_fill(0, 15, null)));
var_dump($r->validity($lock), $r->extend($lock, 1000), $r->unlock($lock));

// A one-element list is a multi-resource lock too (its resource stays a list).
$single = $r->lock([$d], 1000);
var_dump($single['resource'] === [$d], $r->unlock($single));
// A list that lost a key to someone else: unlock still frees the keys that are ours, and is false
// (the lock was not all ours any more: issue 32, item 12; tests/calls/346).
$lock = $r->lock([$a, $b], 5000);
foreach (rt_ports() as $port) {
    rt_redis($port, 'SET', $b, 'someone-else', 'PX', '5000');
}
var_dump($r->validity($lock), $r->unlock($lock));
var_dump(rt_eventually(fn () => rt_values($a) === array_fill(0, 5, null)), rt_values_are($b, array_fill(0, 5, 'someone-else')));
rt_del($b);
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
bool(false)
bool(false)
bool(true)
bool(true)
bool(true)
bool(true)
bool(true)
bool(true)
bool(true)
bool(false)
bool(false)
bool(false)
bool(true)
bool(true)
bool(false)
bool(false)
bool(true)
bool(true)
