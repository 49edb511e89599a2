--TEST--
RedLock::fromCluster(): a master owning a single slot that few tags reach (slot 26: no "rl0.<k>" with k below 100000 hashes there; the first is rl0.140390) is still its member's master: member 0 is placed on it and writes its key there, not "has no master of its own". A private cluster of 3 masters, no replicas (slot 26 on one, the rest split on the two others)
--EXTENSIONS--
redlock
--SKIPIF--
<?php if (!preg_match('/v=(\d+)/', (string) shell_exec('redis-server --version'), $m) || (int) $m[1] < 7) die('skip needs redis-server 7 (cluster-port)'); ?>
--FILE--
<?php
require __DIR__ . '/../inc/redlock_test.inc';
$nodes = [];
for ($i = 0; $i < 3; $i++) {
    $bus = rt_free_port();
    $nodes[] = rt_spawn_server(['--cluster-enabled', 'yes', '--cluster-port', (string) $bus,
        '--cluster-config-file', 'nodes.conf', '--cluster-node-timeout', '5000']) + ['bus' => $bus];
}
[$small, $low, $high] = $nodes;
rt_redis($small['port'], 'CLUSTER', 'ADDSLOTS', '26');
rt_redis($low['port'], 'CLUSTER', 'ADDSLOTSRANGE', '0', '25', '27', '8000');
rt_redis($high['port'], 'CLUSTER', 'ADDSLOTSRANGE', '8001', '16383');
foreach ([$low, $high] as $n) {
    rt_redis($small['port'], 'CLUSTER', 'MEET', '127.0.0.1', (string) $n['port'], (string) $n['bus']);
}
$formed = rt_eventually(function () use ($nodes) {
    foreach ($nodes as $n) {
        if (!str_contains((string) rt_redis($n['port'], 'CLUSTER', 'INFO'), 'cluster_state:ok')
            || substr_count((string) rt_redis($n['port'], 'CLUSTER', 'NODES'), 'master') !== 3) {
            return false;
        }
    }
    return true;
}, 10.0 * rt_time_scale());
var_dump($formed);
$r = RedLock::fromCluster("cluster://127.0.0.1:{$low['port']}?timeout=" . min(60.0, 2.0 * rt_time_scale()));
$lock = $r->lock($resource = rt_key('res'), 10000);
echo 'locked: ', is_array($lock) ? 'yes' : 'no', "\n";
// a member slower than the quorum may be told 'no reply needed': no failure
foreach ($r->getLastErrors() as $i => $e) {
    echo "member $i: ", $e === null || $e === 'no reply needed' ? 'ok' : $e, "\n";
}
// the lock returns on a quorum: the last member's write may still be on its way
rt_eventually(fn () => rt_redis($small['port'], 'KEYS', "*$resource") !== [], 2.0 * rt_time_scale() * rt_load_scale());
echo 'on the small master: ', json_encode(rt_redis($small['port'], 'KEYS', "*$resource")), "\n";
var_dump($r->unlock($lock));
?>
--EXPECTF--
bool(true)
locked: yes
member 0: ok
member 1: ok
member 2: ok
on the small master: ["{rl0.%d}redlock-test:881_from_cluster_small_master:%s:res"]
bool(true)
