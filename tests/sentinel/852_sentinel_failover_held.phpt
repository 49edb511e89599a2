--TEST--
Sentinel members: SENTINEL FAILOVER forced while a lock is held: until the old master is demoted an open connection still reaches it; once it is (its clients closed), the member asks its sentinels again and validity(), extend() and unlock() act on the promoted replica, which had the key by replication; lock() works against the new master
--EXTENSIONS--
redlock
--SKIPIF--
<?php require __DIR__ . '/../inc/sentinel.inc'; sn_skipif(); ?>
--FILE--
<?php
require __DIR__ . '/../inc/sentinel.inc';
$members = sn_start(3, 1);
$key = rt_key();
$r = new RedLock(array_map(fn ($m) => sn_uri($m), $members), 10, 1);
$lock = $r->lock($key, 10000);
$solo = new RedLock([sn_uri($members[0])], 10, 1); // member 0 alone: its answer is always waited for
var_dump(is_array($lock), $solo->validity($lock) > 0);
$old = $members[0]['master']['port'];
$new = sn_failover($members[0]);
echo $new === $members[0]['replica']['port'] ? "the replica was promoted\n" : "promoted $new\n";

/* Sentinel demotes a reachable old master only once its role has been stable for a while (8 s and
 * more): until then it is a master too, and a connection opened before the failover still reaches it. */
$reached = $solo->validity($lock) > 0 && $solo->getLastErrors()[0] === null;
$role = rt_redis($old, 'ROLE')[0]; // read after: a master now was one during the call
/* on a loaded machine the failover itself may outlast Sentinel's wait: then the demotion came first */
echo $role !== 'master' ? "the old master was demoted already\n" : ($reached ? "the old master still reached\n" : "NOT REACHED\n");

/* What Sentinel then sends the old master (REPLICAOF the new one, CLIENT KILL TYPE normal), sent now. */
rt_redis($old, 'REPLICAOF', '127.0.0.1', (string) $new);
rt_redis($old, 'CLIENT', 'KILL', 'TYPE', 'normal');
$errors = fn () => json_encode(array_map(fn ($e) => $e === 'no reply needed' ? null : $e, $r->getLastErrors()));
var_dump($r->validity($lock) > 0, $solo->validity($lock) > 0, $solo->getLastErrors()[0]);
echo "validity errors: ", $errors(), "\n";
var_dump(is_array($r->extend($lock, 20000)),
    rt_eventually(fn () => rt_redis($new, 'PTTL', $key) > 15000, 2.0 * rt_time_scale() * rt_load_scale())); // extended (>10 s), once landed
var_dump($r->unlock($lock), rt_settled(fn () => rt_redis($new, 'EXISTS', $key)));
$lock = $r->lock($key, 10000);
/* lock() returns on a quorum: member 0's SET may land after the other two members' (a loaded run read it too early) */
var_dump(is_array($lock), rt_eventually(fn () => rt_redis($new, 'GET', $key) === $lock['token'], 2.0 * rt_time_scale() * rt_load_scale()),
    $r->unlock($lock));
?>
--EXPECTF--
bool(true)
bool(true)
the replica was promoted
the old master %r(still reached|was demoted already)%r
bool(true)
bool(true)
NULL
validity errors: [null,null,null]
bool(true)
bool(true)
bool(true)
int(0)
bool(true)
bool(true)
bool(true)
