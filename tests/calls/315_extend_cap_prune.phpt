--TEST--
Option maxExtensions: counts of locks left to expire are pruned, counts of live locks are kept
--EXTENSIONS--
redlock
--FILE--
<?php
require __DIR__ . '/../inc/redlock_test.inc';
$r = new RedLock(rt_servers(5, 3.0), 10, 1, ['maxExtensions' => 1]);
$live = $r->lock(rt_key('live'), 10000);
var_dump(is_array($r->extend($live, 10000)));
$extended = 0;
// 100 locks extended once to a short ttl and never unlocked: the table passes 64 and 128 entries
// while most of them have expired, which is when it is pruned.
for ($i = 0; $i < 100; $i++) {
    $lock = $r->lock(rt_key("short-$i"), 1000);
    $extended += is_array($r->extend($lock, 300));
    if ($i % 20 === 19) {
        usleep(350000); // the last 20 short extensions run out
    }
}
var_dump($extended >= 90); // on a loaded machine an odd 300 ms extension may come too late
// The live lock's count survived the pruning: still capped.
var_dump($r->extend($live, 10000));
var_dump($r->unlock($live));
// Its count went with the unlock: the same token put back may be extended again.
foreach (rt_ports() as $port) {
    rt_redis($port, 'SET', $live['resource'], $live['token'], 'PX', '5000');
}
var_dump(is_array($r->extend($live, 5000)), $r->unlock($live));
?>
--EXPECT--
bool(true)
bool(true)
bool(false)
bool(true)
bool(true)
bool(true)
