--TEST--
autoExtend's batch: one lease awaiting a member known to have lost its key (that member now answers late, past the ttl) does not cost the other leases of the batch their renewal; they keep their locks
--EXTENSIONS--
redlock
--FILE--
<?php
/* Member A sits behind the fault proxy. Lease 0's key is deleted on A: its next renewal hears A's
 * "not ours", so A is awaited by lease 0's renewals (self-healing). Then A's replies come 4 ttls
 * late. A quorum (B, C) answers every lease at once. Before the fix, the whole batch waited for A
 * (bounded by the ttl) for lease 0's sake, and every lease of the batch was lost. */
require __DIR__ . '/../inc/faultproxy.inc';
fp_alarm(60);
$s = fp_time_scale();
$a = fp_spawn_server();
$b = fp_spawn_server();
$c = fp_spawn_server();
$proxy = fp_start([$a['port']]);
$ttl = (int) (1500 * $s);
$timeout = 4.0 * $ttl / 1000;
$servers = [['127.0.0.1', $proxy['listen'][$a['port']], $timeout], ['127.0.0.1', $b['port'], $timeout],
    ['127.0.0.1', $c['port'], $timeout]];
$lost = [];
$r = new RedLock($servers, 0, 0, ['autoExtend' => true, 'onLoss' => function ($lock, $why) use (&$lost) {
    $lost[] = $lock['resource'];
}]);
$locks = [];
for ($i = 0; $i < 10; $i++) {
    $locks[$i] = $r->lock(rt_key("batch$i"), $ttl);
}
var_dump(count(array_filter($locks, 'is_array')));
$first = $locks[0];
var_dump(rt_eventually(fn () => rf_cmd($a['port'], 'GET', $first['resource']) === $first['token'], 2.0 * $s));
rf_cmd($a['port'], 'DEL', $first['resource']);
/* healed by the next renewal, which notes A as having lost lease 0's key */
var_dump(rt_eventually(fn () => rf_cmd($a['port'], 'GET', $first['resource']) === $first['token'], $ttl / 1000));
fp_set($proxy, $a['port'], 'all', 'delay_s2c=' . (4 * $ttl));
usleep((int) (3 * $ttl * 1000)); /* two ttls and more */
$kept = 0;
for ($i = 1; $i < 10; $i++) {
    $kept += rf_cmd($b['port'], 'GET', $locks[$i]['resource']) === $locks[$i]['token']
        && rf_cmd($c['port'], 'GET', $locks[$i]['resource']) === $locks[$i]['token'];
}
echo "other leases kept on B and C: $kept of 9\n";
$lostOthers = array_values(array_filter($lost, fn ($res) => $res !== $first['resource']));
echo 'other leases reported lost: ', count($lostOthers), "\n";
fp_set($proxy, $a['port'], 'all', 'delay_s2c=0');
echo "done\n";
?>
--EXPECT--
int(10)
bool(true)
bool(true)
other leases kept on B and C: 9 of 9
other leases reported lost: 0
done
