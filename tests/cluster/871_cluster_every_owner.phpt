--TEST--
Cluster member: a lock on a key of every master's slots goes to that master (the key is there, nowhere else), validity/extend/unlock follow it, a second holder is refused; keys of one hash tag lock together, keys on different slots are refused with a clear error; a plain server given as cluster:// and seeds down or silent are a per-member error within the timeout
--EXTENSIONS--
redlock
--SKIPIF--
<?php require __DIR__ . '/../inc/cluster.inc'; echo cl_skip_reason();
--FILE--
<?php
require __DIR__ . '/../inc/cluster.inc';
// 0.5 s natively; a member's first call (the slot map, then the owner) under valgrind on a loaded machine takes more
$timeout = round(min(10.0, 0.5 * rt_time_scale() * rt_load_scale()), 2);
$r = new RedLock([cl_uri("?timeout=$timeout")], 20, 1);
$other = new RedLock([['cluster' => explode(',', getenv('REDLOCK_TEST_CLUSTER')), 'timeout' => $timeout]], 20, 1);
$masters = cl_masters();
echo count($masters), " masters\n";
foreach ($masters as $i => $port) {
    $key = cl_key_on($port, "m$i");
    $lock = $r->lock($key, 10000);
    $where = array_filter(array_keys(cl_nodes()), fn ($p) => cl_nodes()[$p]['master'] && rt_redis($p, 'EXISTS', $key) === 1);
    printf("master #%d: %s, errors %s, on its master only: %s, value ours: %s\n", $i, $lock ? 'locked' : 'not locked',
        json_encode($r->getLastErrors()), array_values($where) === [$port] ? 'yes' : json_encode($where),
        cl_get($key) === $lock['token'] ? 'yes' : 'no');
    printf("  rival: %s; validity > 0: %s; extend: %s; ", $other->lock($key, 1000) ? 'TOOK IT' : 'refused',
        $r->validity($lock) > 0 ? 'yes' : 'no', $r->extend($lock, 20000) ? 'yes' : 'no');
    $pttl = rt_redis($port, 'PTTL', $key);
    printf("pttl > 10 s: %s; unlock: %s; key gone: %s\n", $pttl > 10000 ? 'yes' : "no ($pttl)", $r->unlock($lock) ? 'yes' : 'no',
        cl_get($key) === null ? 'yes' : 'no');
}

$tag = rt_key('{order}');
$both = $r->lock(["$tag:a", "$tag:b"], 5000);
echo 'one hash tag: ', $both ? 'locked' : 'not locked', ' ', json_encode($r->getLastErrors()), "\n";
$r->unlock($both);
$a = cl_key_on($masters[0], 'x');
$b = cl_key_on($masters[1], 'y');
var_dump($r->lock([$a, $b], 5000));
echo 'different slots: ', $r->getLastErrors()[0], "\n";
echo 'nothing written: ', cl_get($a) === null && cl_get($b) === null ? 'yes' : 'no', "\n";

// a plain server given as cluster://
$plain = new RedLock(['cluster://127.0.0.1:' . rt_ports()[0] . "?timeout=$timeout"], 20, 1);
[$took, $ms] = rt_timed(fn () => $plain->lock(rt_key('plain'), 1000));
echo 'plain server: ', $took ? 'LOCKED' : 'refused', ' (', $plain->getLastErrors()[0], ")\n";
// seeds down, or silent: bounded by the timeout
$closed = rt_free_port();
$silent = stream_socket_server('tcp://127.0.0.1:0');
$silentPort = (int) explode(':', stream_socket_get_name($silent, false))[1];
$down = new RedLock(["cluster://127.0.0.1:$closed,127.0.0.1:$silentPort?timeout=0.3"], 20, 1);
[$took, $ms] = rt_timed(fn () => $down->lock(rt_key('down'), 1000));
echo 'seeds down: ', $took ? 'LOCKED' : 'refused', ', within the timeout: ', $ms < (300 * 1.5 + 200) * rt_time_scale() * rt_load_scale() ? 'yes' : "no ($ms ms)", "\n";
echo preg_replace('/\d+/', 'N', $down->getLastErrors()[0]), "\n";
// and again at once: the same reason without waiting again
[$took, $ms] = rt_timed(fn () => $down->lock(rt_key('down'), 1000));
echo 'again: ', $ms < 100 * rt_time_scale() * rt_load_scale() ? 'at once' : "waited $ms ms", "\n";
?>
--EXPECTF--
3 masters
master #0: locked, errors [null], on its master only: yes, value ours: yes
  rival: refused; validity > 0: yes; extend: yes; pttl > 10 s: yes; unlock: yes; key gone: yes
master #1: locked, errors [null], on its master only: yes, value ours: yes
  rival: refused; validity > 0: yes; extend: yes; pttl > 10 s: yes; unlock: yes; key gone: yes
master #2: locked, errors [null], on its master only: yes, value ours: yes
  rival: refused; validity > 0: yes; extend: yes; pttl > 10 s: yes; unlock: yes; key gone: yes
one hash tag: locked [null]
bool(false)
different slots: cluster: keys on different slots (several resources, or a kind's keys beside one): give them a hash tag, like {order}
nothing written: yes
plain server: refused (cluster: no slot map (127.0.0.1:%d: not a cluster node: ERR This instance has cluster support disabled))
seeds down: refused, within the timeout: yes
cluster: no slot map (N.N.N.N:N: timeout)
again: at once
