--TEST--
Cluster member: a pooled connection does not carry the redirections its earlier call spent: a call that used up its 3 (an aborted transaction asked of the map's owner again and again) and left the connection in the pool does not stop the next object's call on it from following an ASK
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
$user = 'rl-891-' . getmypid();
register_shutdown_function(function () use ($nodes, $user, $from, $to, $slot) { // the cluster as it was
    rt_redis($to, 'CLUSTER', 'SETSLOT', (string) $slot, 'STABLE');
    rt_redis($from, 'CLUSTER', 'SETSLOT', (string) $slot, 'STABLE');
    foreach (array_keys($nodes) as $port) {
        rt_redis($port, 'ACL', 'DELUSER', $user);
    }
});
// a user without PTTL: inspect()'s transaction is aborted (EXECABORT) on every try, each a redirection spent
foreach (array_keys($nodes) as $port) {
    rt_redis($port, 'ACL', 'SETUSER', $user, 'on', '>pw', '~*', '&*', '+@all', '-pttl') === 'OK' || rt_fatal("ACL on $port");
}
$uri = "cluster://$user:pw@" . getenv('REDLOCK_TEST_CLUSTER') . "?timeout=$timeout";
$spent = new RedLock([$uri], 0, 0);
echo 'inspect() without PTTL: ', json_encode($spent->inspect('{' . $tag . '}' . rt_key('spent'))), "\n";
unset($spent); // its connection to the slot's master goes to the pool

// the slot in migration: a key the source does not hold is answered ASK, one redirection to follow
rt_redis($to, 'CLUSTER', 'SETSLOT', (string) $slot, 'IMPORTING', $nodes[$from]['id']) === 'OK' || rt_fatal('IMPORTING');
rt_redis($from, 'CLUSTER', 'SETSLOT', (string) $slot, 'MIGRATING', $nodes[$to]['id']) === 'OK' || rt_fatal('MIGRATING');
$next = new RedLock([$uri], 0, 0);
$resource = '{' . $tag . '}' . rt_key('next');
$lock = $next->lock($resource, 10000);
echo 'the next object locks (the ASK followed): ', is_array($lock) ? 'yes' : json_encode($next->getLastErrors()), "\n";
echo 'on the target: ', json_encode(in_array($resource, rt_redis($to, 'CLUSTER', 'GETKEYSINSLOT', (string) $slot, '1000'), true)), "\n";
echo 'unlock(): ', json_encode(is_array($lock) && $next->unlock($lock)), "\n";
?>
--EXPECT--
inspect() without PTTL: null
the next object locks (the ASK followed): yes
on the target: true
unlock(): true
