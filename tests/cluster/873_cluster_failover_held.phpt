--TEST--
Cluster member: a CLUSTER FAILOVER of the master holding our keys: the demoted master's MOVED (inside a transaction: EXECABORT) is followed to the promoted replica within the call; an untracked lock stays valid there, a tracked lock's vote from the new master is not counted until an extend() adopts it (the master-changed rule); a replica never votes; no second holder at any point
--EXTENSIONS--
redlock
--SKIPIF--
<?php require __DIR__ . '/../inc/cluster.inc'; echo cl_skip_reason();
--FILE--
<?php
require __DIR__ . '/../inc/cluster.inc';
$timeout = min(60.0, 2.0 * rt_time_scale());
$servers = array_merge([cl_uri("?timeout=$timeout")], rt_servers(2, $timeout));
$pausePlain = function () {
    foreach (array_slice(rt_ports(), 0, 2) as $port) {
        rt_redis($port, 'CLIENT', 'PAUSE', (string) (int) (min(1000, 400 * rt_load_scale()) * rt_time_scale()));
    }
};
$r = new RedLock($servers, 20, 1);
$t = new RedLock($servers, 20, 1, ['maxExtensions' => 100]);
$rival = new RedLock($servers, 20, 1);
$old = cl_masters()[2];
$u = $r->lock(cl_key_on($old, 'u'), 30000);
$k = $t->lock(cl_key_on($old, 'k'), 30000);
// a lock returns on a quorum: the cluster member's write may still be on its way
$there = rt_eventually(fn () => rt_redis($old, 'GET', $u['resource']) === $u['token'] && rt_redis($old, 'GET', $k['resource']) === $k['token'],
    2.0 * rt_time_scale() * rt_load_scale());
echo 'locked: ', json_encode([is_array($u), is_array($k), $there]), "\n";

$new = cl_failover($old);
rt_redis($new, 'READONLY');
echo 'the promoted replica holds both: ', json_encode([rt_redis($new, 'GET', $u['resource']) === $u['token'],
    rt_redis($new, 'GET', $k['resource']) === $k['token']]), "\n";

$pausePlain();
var_dump($r->validity($u) > 0);
// the pooled connection meets the demoted master's MOVED and follows it; a connection the demoted master closed
// in its failover (Valkey 8.1 did, once in 4 runs) is opened anew to the map's owner, whose ROLE check refuses it
// before any vote (a replica never votes, docs/guide/cluster.md), the map asked again for the next call
$said = $r->getLastErrors()[0];
echo 'untracked, cluster member: ', in_array($said, [null, 'ROLE: this server is not the master (the sentinels\' answer is out of date)'], true)
    ? 'the new master voted, or nobody (never the demoted master)' : json_encode($said), "\n";
echo 'rival: ', $rival->lock($u['resource'], 1000) ? 'TOOK IT' : 'refused', "\n";

$pausePlain();
var_dump($t->validity($k) > 0);
echo 'tracked, cluster member: ', $t->getLastErrors()[0], "\n";
var_dump(is_array($t->extend($k, 30000)));
$pausePlain();
var_dump($t->validity($k) > 0);
echo 'after the extend: ', json_encode($t->getLastErrors()[0]), "\n";
echo 'rival: ', $rival->lock($k['resource'], 1000) ? 'TOOK IT' : 'refused', "\n";

// the demoted master as the only seed: its map is as good, and the lock goes to a master
$viaReplica = new RedLock(["cluster://127.0.0.1:$old?timeout=$timeout"], 20, 1);
$w = $viaReplica->lock(cl_key_on($new, 'w'), 5000);
echo 'seeded by a replica: ', is_array($w) ? 'locked' : 'not locked', ' on the master: ',
    rt_redis($new, 'GET', $w['resource']) === $w['token'] ? 'yes' : 'no', "\n";
var_dump($r->unlock($u), $t->unlock($k), $viaReplica->unlock($w));
// unlock() returns on a quorum: with both plain servers first, the cluster member's delete may still be on its way
$gone = fn () => [cl_get($u['resource']), cl_get($k['resource'])];
rt_eventually(fn () => $gone() === [null, null]);
echo 'gone from the new master: ', json_encode($gone()), "\n";
?>
--EXPECT--
locked: [true,true,true]
the promoted replica holds both: [true,true]
bool(true)
untracked, cluster member: the new master voted, or nobody (never the demoted master)
rival: refused
bool(true)
tracked, cluster member: the master changed since the lock was taken: not counted until healed
bool(true)
bool(true)
after the extend: null
rival: refused
seeded by a replica: locked on the master: yes
bool(true)
bool(true)
bool(true)
gone from the new master: [null,null]
