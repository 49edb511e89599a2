--TEST--
The two-masters window (a replica promoted while its old master, cut off, still serves clients that kept its address) lets one member grant a lock twice; the servers' min-replicas-to-write closes it for the old master: its NOREPLICAS is a no vote, named in getLastErrors(), for lock(), a multi-resource lock, lockShared(), lockSemaphore() and fencing, and changes nothing else (scripts stay on); a promoted master without a replica refuses too (the setting's cost) until the old one replicates it
--EXTENSIONS--
redlock
--FILE--
<?php
require __DIR__ . '/../inc/redlock_test.inc';
$old = rt_spawn_server();
$new = rt_spawn_server(['--replicaof', '127.0.0.1', (string) $old['port']]);
$synced = fn (int $port) => str_contains((string) rt_redis($port, 'INFO', 'replication'), 'master_link_status:up');
if (!rt_eventually(fn () => $synced($new['port']), 10.0 * rt_load_scale())) {
    rt_fatal('the replica did not sync');
}
$pa = rt_spawn_server();
$pb = rt_spawn_server();
$a = ['127.0.0.1', $pa['port'], 10.0];
$b = ['127.0.0.1', $pb['port'], 10.0];
$member = fn (array $server) => ['127.0.0.1', $server['port'], 10.0];
/* the old master's answer arrives first: $a and $b hold their writes back for a while */
$slowOthers = function () use ($a, $b) {
    foreach ([$a, $b] as $server) {
        rt_redis($server[1], 'CLIENT', 'PAUSE', (string) (int) (300 * rt_load_scale()), 'WRITE');
    }
};
/* c1 kept the old master's address; c0 learnt the promoted one (as a Sentinel member does) */
$c1 = new RedLock([$member($old), $a, $b], 10, 1, ['fencing' => true]);
$c0 = new RedLock([$member($new), $a, $b], 10, 1, ['fencing' => true]);
/* the scripts $port has run: c0's attempt must have reached $b (and failed there) before its key goes */
$scriptsRun = fn (int $port) => array_sum(preg_match_all('/^cmdstat_eval(?:sha)?:calls=(\d+)/m',
    (string) rt_redis($port, 'INFO', 'commandstats'), $m) ? array_map('intval', $m[1]) : []);
$c0LockWhileBHolds = function (string $key) use ($c0, $b, $scriptsRun) {
    rt_redis($b[1], 'SET', $key, 'someone', 'PX', '60000'); // c0 wins on the new master and $a
    $before = $scriptsRun($b[1]);
    $lock = $c0->lock($key, 30000);
    rt_eventually(fn () => $scriptsRun($b[1]) > $before, 5.0 * rt_load_scale());
    rt_redis($b[1], 'DEL', $key);
    return $lock;
};
$errorOf = fn (RedLock $r) => preg_replace('/^(NOREPLICAS)\b.*$/', '$1', (string) $r->getLastErrors()[0]);

/* the failover: the replica promoted, the old master not yet demoted */
rt_redis($new['port'], 'REPLICAOF', 'NO', 'ONE');
rt_eventually(fn () => !str_contains((string) rt_redis($old['port'], 'INFO', 'replication'), 'connected_slaves:1'), 5.0 * rt_load_scale());

echo "-- without the setting: both hold\n";
$key = rt_key('twice');
$first = $c0LockWhileBHolds($key);
$second = $c1->lock($key, 30000); // $a holds c0's key: c1 wins on the old master and $b
var_dump(is_array($first), is_array($second));
$c0->unlock($first);
$c1->unlock($second);

echo "-- with min-replicas-to-write 1 on the old master: it refuses, for every kind\n";
rt_redis($old['port'], 'CONFIG', 'SET', 'min-replicas-to-write', '1');
$key = rt_key('once');
$first = $c0LockWhileBHolds($key);
$second = $c1->lock($key, 30000);
var_dump(is_array($first), $second, $errorOf($c1));
$c0->unlock($first);
foreach ([
    'multi-resource lock' => fn () => $c1->lock([rt_key('m1'), rt_key('m2')], 30000),
    'lockShared' => fn () => $c1->lockShared(rt_key('shared'), 30000),
    'lockSemaphore' => fn () => $c1->lockSemaphore(rt_key('sem'), 2, 30000),
] as $kind => $take) {
    rt_redis($a[1], 'CONFIG', 'SET', 'min-replicas-to-write', '1'); // $a refuses writes too: the old master decides
    $got = $take();
    rt_redis($a[1], 'CONFIG', 'SET', 'min-replicas-to-write', '0');
    printf("%s: %s, %s\n", $kind, var_export($got, true), $errorOf($c1));
}
echo "-- nothing else changed: a lock without the old master's vote still works, scripts included\n";
$slowOthers();
$lock = $c1->lock(rt_key('after'), 30000);
$error = $errorOf($c1); // the old master's refusal, not hidden by the fence's write-back
var_dump(is_array($lock), $error, $c1->extend($lock, 30000) !== false, $c1->unlock($lock), array_filter($c1->getServerWarnings()));

echo "-- the promoted master, with the setting and no replica, refuses as well\n";
rt_redis($new['port'], 'CONFIG', 'SET', 'min-replicas-to-write', '1');
$solo = new RedLock([$member($new)], 10, 1);
var_dump($solo->lock(rt_key('solo'), 30000), $errorOf($solo));
echo "-- until the old master is demoted to its replica\n";
rt_redis($old['port'], 'CONFIG', 'SET', 'min-replicas-to-write', '0');
rt_redis($old['port'], 'REPLICAOF', '127.0.0.1', (string) $new['port']);
if (!rt_eventually(fn () => $synced($old['port']), 10.0 * rt_load_scale())) {
    rt_fatal('the old master did not sync from the new one');
}
/* the new master counts a replica as good once it has acknowledged within min-replicas-max-lag (10 s) */
var_dump(rt_eventually(function () use ($solo) {
    $lock = $solo->lock(rt_key('solo'), 30000);
    return $lock !== false && $solo->unlock($lock);
}, 5.0 * rt_load_scale()));
echo "-- and the old master, now a replica, never votes\n";
$slowOthers();
$lock = $c1->lock(rt_key('demoted'), 30000);
var_dump(is_array($lock), preg_replace('/^(READONLY)\b.*$/', '$1', (string) $c1->getLastErrors()[0]));
?>
--EXPECT--
-- without the setting: both hold
bool(true)
bool(true)
-- with min-replicas-to-write 1 on the old master: it refuses, for every kind
bool(true)
bool(false)
string(10) "NOREPLICAS"
multi-resource lock: false, NOREPLICAS
lockShared: false, NOREPLICAS
lockSemaphore: false, NOREPLICAS
-- nothing else changed: a lock without the old master's vote still works, scripts included
bool(true)
string(10) "NOREPLICAS"
bool(true)
bool(true)
array(0) {
}
-- the promoted master, with the setting and no replica, refuses as well
bool(false)
string(10) "NOREPLICAS"
-- until the old master is demoted to its replica
bool(true)
-- and the old master, now a replica, never votes
bool(true)
string(8) "READONLY"
