--TEST--
Multi-resource lock(): all or none per server; one key held elsewhere on 3 servers fails with no partial keys of ours
--EXTENSIONS--
redlock
--FILE--
<?php
require __DIR__ . '/../inc/redlock_test.inc';
[$a, $b, $c] = [rt_key('a'), rt_key('b'), rt_key('c')];
$ports = rt_ports();
$r = new RedLock(rt_servers(5, 3.0), 10, 2);

// b is held by another owner on 3 of 5 servers: no quorum.
foreach (array_slice($ports, 0, 3) as $port) {
    rt_redis($port, 'SET', $b, 'other-owner', 'PX', '10000');
}
var_dump($r->lock([$a, $b, $c], 5000));
// None of our keys is left anywhere: not on the 3 (never written), not on the 2 (released).
var_dump(rt_eventually(fn () => rt_values($a) === array_fill(0, 5, null) && rt_values_are($c, array_fill(0, 5, null))));
var_dump(rt_eventually(fn () => rt_values($b) === ['other-owner', 'other-owner', 'other-owner', null, null]));
rt_del($b);

// Held on 2 of 5: the other 3 give a quorum, and the 2 servers get none of the keys.
foreach (array_slice($ports, 0, 2) as $port) {
    rt_redis($port, 'SET', $b, 'other-owner', 'PX', '10000');
}
$lock = $r->lock([$a, $b, $c], 5000);
var_dump(is_array($lock));
$token = $lock['token'];
var_dump(rt_eventually(fn () => rt_values($a) === [null, null, $token, $token, $token]
    && rt_values_are($b, ['other-owner', 'other-owner', $token, $token, $token])
    && rt_values_are($c, [null, null, $token, $token, $token])));
var_dump($r->validity($lock) > 4000);
var_dump($r->unlock($lock));
var_dump(rt_eventually(fn () => rt_values($a) === array_fill(0, 5, null)
    && rt_values_are($b, ['other-owner', 'other-owner', null, null, null])));
rt_del($b);
?>
--EXPECT--
bool(false)
bool(true)
bool(true)
bool(true)
bool(true)
bool(true)
bool(true)
bool(true)
