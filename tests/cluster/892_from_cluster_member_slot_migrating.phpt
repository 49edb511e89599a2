--TEST--
fromCluster(): a member whose tag's slot is migrating (IMPORTING on the target, MIGRATING on its master) answers ASK for a key its master does not hold: the member does not follow it (two members' keys would share one master) nor ask the slot map again; its error says the slot is migrating (it was the raw ASK, after the member had been placed anew on the same master up to 3 times a call); the object's other members still make the quorum
--EXTENSIONS--
redlock
--SKIPIF--
<?php require __DIR__ . '/../inc/cluster.inc'; echo cl_skip_reason();
--FILE--
<?php
require __DIR__ . '/../inc/cluster.inc';
$timeout = min(60.0, 2.0 * rt_time_scale());
$whole = RedLock::fromCluster(cl_uri("?timeout=$timeout"), 0, 0);
$probe = rt_key('probe');
is_array($probe_lock = $whole->lock($probe, 10000)) || rt_fatal('probe: ' . json_encode($whole->getLastErrors()));
[$from, $to] = cl_masters();
$key = cl_member_key($from, $probe) ?? rt_fatal('no member key on the first master');
$member = (int) substr($key, 3); // {rl<m>.<k>}
$slot = cl_slot($key);
$whole->unlock($probe_lock);
$nodes = cl_nodes();
$stable = function () use ($from, $to, $slot) {
    rt_redis($to, 'CLUSTER', 'SETSLOT', (string) $slot, 'STABLE');
    rt_redis($from, 'CLUSTER', 'SETSLOT', (string) $slot, 'STABLE');
};
register_shutdown_function($stable); // whatever happens, the cluster is left as it was
// how often the slot map was asked, on every node
$map_asks = function (): int {
    $n = 0;
    foreach (array_keys(cl_nodes()) as $port) {
        $info = (string) rt_redis($port, 'INFO', 'commandstats');
        preg_match_all('/^cmdstat_cluster\|(?:shards|slots):calls=(\d+)/m', $info, $m);
        $n += array_sum(array_map('intval', $m[1]));
    }
    return $n;
};

$alone = new RedLock([cl_uri("?timeout=$timeout&member=$member")], 0, 0);
is_array($l = $alone->lock(rt_key('warm'), 1000)) || rt_fatal('warm: ' . json_encode($alone->getLastErrors()));
$alone->unlock($l);
rt_redis($to, 'CLUSTER', 'SETSLOT', (string) $slot, 'IMPORTING', $nodes[$from]['id']) === 'OK' || rt_fatal('IMPORTING');
rt_redis($from, 'CLUSTER', 'SETSLOT', (string) $slot, 'MIGRATING', $nodes[$to]['id']) === 'OK' || rt_fatal('MIGRATING');

$before = $map_asks();
$l = $alone->lock(rt_key('x'), 10000);
$asked = $map_asks() - $before;
echo 'member alone: ', json_encode($l), ', map asked ', $asked, ' times, ',
    preg_replace('/\(ASK \d+ [^)]*\)/', '(ASK ...)', (string) $alone->getLastErrors()[0]), "\n";

$resource = rt_key('whole');
$lock = $whole->lock($resource, 10000);
echo 'the whole object: ', is_array($lock) ? 'held' : json_encode($whole->getLastErrors()), "\n";
is_array($lock) && $whole->unlock($lock);
$stable();
?>
--EXPECT--
member alone: false, map asked 0 times, the slot of this member's tag is migrating (ASK ...): it does not vote until the migration ends
the whole object: held
