--TEST--
RedLock::fromCluster(): a master stopped (SIGSTOP past the node timeout; cluster-require-full-coverage no) is replaced by its replica (a failover changes no tag, docs/design/cluster.md): an object that kept calling while the master was marked failed and not yet replaced must, once the failover is done, write each member under the same key as every other process, so a rival of a lock held on all three masters is refused by all three (no second holder)
--EXTENSIONS--
redlock
posix
--SKIPIF--
<?php require __DIR__ . '/../inc/cluster.inc'; echo cl_skip_reason();
--FILE--
<?php
require __DIR__ . '/../inc/cluster.inc';
$scale = rt_time_scale();
// the stopped master costs each call this timeout; a loaded machine needs more for the live ones (at a load of 14
// on 2 cores a member's write ran past 0.3 s, and the key the check below looks for was never written)
$seeds = getenv('REDLOCK_TEST_CLUSTER') . '?timeout=' . min(60.0, 0.3 * $scale * rt_load_scale());
$all = array_keys(cl_nodes());
$set = function (string $coverage, string $nofailover) use ($all) {
    foreach ($all as $p) {
        rt_redis($p, 'CONFIG', 'SET', 'cluster-require-full-coverage', $coverage);
        rt_redis($p, 'CONFIG', 'SET', 'cluster-replica-no-failover', $nofailover);
    }
};
$set('no', 'no');
/** Masters owning slots, not failed, as node $p sees them. */
$live = function (int $p): array {
    $nodes = @rt_redis($p, 'CLUSTER', 'NODES');
    $out = [];
    foreach (is_string($nodes) ? explode("\n", trim($nodes)) : [] as $line) {
        $f = explode(' ', trim($line));
        $flags = explode(',', $f[2] ?? '');
        if (count($f) > 8 && in_array('master', $flags, true) && !in_array('fail', $flags, true)) {
            $out[] = (int) explode('@', explode(':', $f[1])[1])[0];
        }
    }
    sort($out);
    return $out;
};
$rival = RedLock::fromCluster($seeds, 10, 1);
$probe = rt_key('probe');
$first = RedLock::fromCluster($seeds, 10, 1);
$held = $first->lock($probe, 5000) ?: rt_fatal('probe not locked');
$victim = null;
foreach (cl_masters() as $p) {
    $k = cl_member_key($p, $probe);
    if ($k !== null && str_starts_with($k, '{rl0.')) {
        $victim = $p;
    }
}
$first->unlock($held);
$victim ?? rt_fatal('member 0 not found');
$pid = (int) (preg_match('/process_id:(\d+)/', (string) rt_redis($victim, 'INFO', 'server'), $m) ? $m[1] : 0);
$pid > 0 || rt_fatal('no pid');
$others = array_values(array_diff($all, [$victim]));
// its replica stands for election only with its replication link up: a master demoted by an earlier failover
// (tests 873, 874) may still be in its full resync, and the cluster would then never replace the stopped master
cl_synced_replica($victim);
posix_kill($pid, SIGSTOP);
register_shutdown_function(function () use ($pid, $set) {
    posix_kill($pid, SIGCONT);
    $set('yes', 'no');
});
// the rival keeps calling until every other node sees the master replaced by its replica
$deadline = microtime(true) + 20 * $scale * rt_load_scale(); // the cluster's own failover slows with the load
do {
    $failed = array_reduce($others, fn ($c, $p) => $c && !in_array($victim, $live($p), true) && count($live($p)) === 3, true);
    $x = $rival->lock(rt_key('during'), 500);
    $x && $rival->unlock($x);
    usleep(50000);
} while (!$failed && microtime(true) < $deadline);
echo 'replaced by its replica: ', $failed ? 'yes' : 'no', "\n";
posix_kill($pid, SIGCONT);
// back: every node sees the three masters again, the cluster ok
$back = rt_eventually(function () use ($all, $live) {
    foreach ($all as $p) {
        $i = @rt_redis($p, 'CLUSTER', 'INFO');
        if (!is_string($i) || !str_contains($i, 'cluster_state:ok') || count($live($p)) !== 3) {
            return false;
        }
    }
    return true;
}, 30 * $scale);
echo 'back as a replica: ', $back ? 'yes' : 'no', "\n";
// a lock held on all three masters by a fresh object: the rival must meet it on every member
$res = rt_key('after');
$holder = RedLock::fromCluster($seeds, 10, 1);
$h = $holder->lock($res, 10000);
echo 'holder: ', is_array($h) ? 'held' : json_encode($holder->getLastErrors()), "\n";
$r = $rival->lock($res, 1000);
echo 'rival: ', $r ? 'WON (a second holder)' : 'refused', "\n";
$r && $rival->unlock($r);
// where each object writes: the tags of its keys, per master
$res2 = rt_key('after2');
$r2 = $rival->lock($res2, 10000);
$tags = function (string $resource): array {
    $out = [];
    rt_eventually(function () use ($resource, &$out) {
        $out = [];
        foreach (cl_masters() as $p) {
            $k = cl_member_key($p, $resource);
            $out[$p] = $k === null ? null : substr($k, 0, strpos($k, '}') + 1);
        }
        return !in_array(null, $out, true);
    }, 2.0 * rt_time_scale() * rt_load_scale());
    return $out;
};
$holder_tags = $tags($res);
// the tags every process uses, from a lock a fresh object holds on all three masters: on a loaded machine one
// member's write can run past its timeout (the lock won on two, that master showing no tag; seen once beside
// a valgrind run), so a fresh object tries again, bounded
for ($i = 0; in_array(null, $holder_tags, true) && $i < 3; $i++) {
    $fresh = RedLock::fromCluster($seeds, 10, 1);
    if ($f = $fresh->lock($again = rt_key("after-fresh-$i"), 10000)) {
        $holder_tags = $tags($again);
        $fresh->unlock($f);
    }
}
$rival_tags = $tags($res2);
// the same for the rival's own write (one member's past its timeout under load: a ZTS leg at load 25), with the
// same object, whose placement is what is checked
for ($i = 0; in_array(null, $rival_tags, true) && $i < 3; $i++) {
    $r2 && $rival->unlock($r2);
    $r2 = $rival->lock($res2 = rt_key("after2-again-$i"), 10000);
    $rival_tags = $tags($res2);
}
echo 'the rival writes under the tags every process uses: ', $holder_tags === $rival_tags ? 'yes' : 'no: ' . json_encode(['others' => $holder_tags, 'rival' => $rival_tags]), "\n";
$r2 && $rival->unlock($r2);
$h && $holder->unlock($h);
?>
--EXPECT--
replaced by its replica: yes
back as a replica: yes
holder: held
rival: refused
the rival writes under the tags every process uses: yes
