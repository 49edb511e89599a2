--TEST--
Cluster member: a slot in migration (IMPORTING/MIGRATING) whose keys the target holds: a transaction's command meets ASK when queued and EXEC answers EXECABORT; the ASK is followed (ASKING before MULTI) as for a single command: a script-free validity() answers held (it was an EXECABORT error after the map's owner was asked 3 times), inspect() says the target's own reason (TRYAGAIN: a multi-key read during the migration), not EXECABORT
--EXTENSIONS--
redlock
--SKIPIF--
<?php require __DIR__ . '/../inc/cluster.inc'; echo cl_skip_reason();
--FILE--
<?php
require __DIR__ . '/../inc/cluster.inc';
$timeout = min(60.0, 2.0 * rt_time_scale());
[$from, $to] = cl_masters();
$nodes = cl_nodes();
$tag = cl_tag_on_first_slot($from);
$slot = cl_slot('{' . $tag . '}');
// the slot in migration, no key moved: a key the source does not hold is answered ASK (to the target)
$stable = function () use ($from, $to, $slot) {
    rt_redis($to, 'CLUSTER', 'SETSLOT', (string) $slot, 'STABLE');
    rt_redis($from, 'CLUSTER', 'SETSLOT', (string) $slot, 'STABLE');
};
register_shutdown_function($stable); // whatever happens, the cluster is left as it was
rt_redis($to, 'CLUSTER', 'SETSLOT', (string) $slot, 'IMPORTING', $nodes[$from]['id']) === 'OK' || rt_fatal('IMPORTING');
rt_redis($from, 'CLUSTER', 'SETSLOT', (string) $slot, 'MIGRATING', $nodes[$to]['id']) === 'OK' || rt_fatal('MIGRATING');

$onTarget = fn () => rt_redis($to, 'CLUSTER', 'GETKEYSINSLOT', (string) $slot, '1000');
foreach ([[], ['scripts' => false]] as $options) {
    $r = new RedLock([cl_uri("?timeout=$timeout")], 0, 0, $options);
    $resource = '{' . $tag . '}' . rt_key(json_encode($options));
    $lock = $r->lock($resource, 10000);
    $where = in_array($resource, $onTarget(), true) ? 'target (by ASK)' : json_encode($onTarget());
    echo json_encode($options), ' locked: ', is_array($lock) ? "yes, on the $where" : json_encode($r->getLastErrors()), "\n";
    // inspect() reads several keys: the target, asked, cannot serve a read of keys it may not have yet
    // (TRYAGAIN), which is the member's error, the server's own reason (not EXECABORT)
    $seen = $r->inspect($resource);
    echo '  inspect(): ', json_encode($seen), ', ', strtok((string) $r->getLastErrors()[0], ' '), "\n";
    $v = $r->validity($lock);
    echo '  validity(): ', $v > 0 ? 'held' : json_encode([$v, $r->getLastErrors()]), "\n";
    if (!$options) {
        echo '  unlock(): ', json_encode($r->unlock($lock)), ', gone from the target: ',
            json_encode(!in_array($resource, $onTarget(), true)), "\n";
    }
}
$stable();
?>
--EXPECT--
[] locked: yes, on the target (by ASK)
  inspect(): null, TRYAGAIN
  validity(): held
  unlock(): true, gone from the target: true
{"scripts":false} locked: yes, on the target (by ASK)
  inspect(): null, TRYAGAIN
  validity(): held
