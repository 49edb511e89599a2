--TEST--
Cluster member: a live resharding (redis-cli --cluster reshard) of a held key's slot: the next call meets MOVED and follows it within the call (no error from the member), the migrated key is found on its new master; a tracked lock's vote from the new master is not counted until an extend() won without it adopts it (the slot-moved rule); no second holder meanwhile
--EXTENSIONS--
redlock
--SKIPIF--
<?php require __DIR__ . '/../inc/cluster.inc'; echo cl_skip_reason();
--FILE--
<?php
require __DIR__ . '/../inc/cluster.inc';
$timeout = min(60.0, 2.0 * rt_time_scale());
$servers = array_merge([cl_uri("?timeout=$timeout")], rt_servers(2, $timeout));
/* The plain members answer after the cluster member (paused for less than their timeout): a validity()
 * would otherwise return on their quorum before the cluster member's reply is read. */
$pausePlain = function () {
    foreach (array_slice(rt_ports(), 0, 2) as $port) {
        rt_redis($port, 'CLIENT', 'PAUSE', (string) (int) (min(1000, 400 * rt_load_scale()) * rt_time_scale()));
    }
};
$r = new RedLock($servers, 20, 1);                              // untracked locks
$t = new RedLock($servers, 20, 1, ['maxExtensions' => 100]);    // tracked locks: the lease keeps each vote's master
$rival = new RedLock($servers, 20, 1);
[$from, $to] = cl_masters();
$tag = cl_tag_on_first_slot($from);
$u = $r->lock('{' . $tag . '}' . rt_key('u'), 30000);
$k = $t->lock('{' . $tag . '}' . rt_key('t'), 30000);
// a lock returns on a quorum: the cluster member's write may still be on its way
rt_eventually(fn () => rt_redis($from, 'GET', $u['resource']) === $u['token'] && rt_redis($from, 'GET', $k['resource']) === $k['token'],
    2.0 * rt_time_scale() * rt_load_scale());
echo 'locked: ', json_encode([is_array($u), is_array($k)]), ' on the first master: ',
    json_encode([rt_redis($from, 'GET', $u['resource']) === $u['token'], rt_redis($from, 'GET', $k['resource']) === $k['token']]), "\n";

cl_reshard($from, $to, 1);
echo 'moved to the second master with their ttl: ', json_encode([rt_redis($to, 'GET', $u['resource']) === $u['token'],
    rt_redis($to, 'PTTL', $k['resource']) > 20000]), "\n";

// untracked: the cached map still says $from: MOVED, followed to $to within the call
$pausePlain();
var_dump($r->validity($u) > 0);
echo 'cluster member after MOVED: ', json_encode($r->getLastErrors()[0]), "\n";
echo 'rival: ', $rival->lock($u['resource'], 1000) ? 'TOOK IT' : 'refused', "\n";

// tracked: the slot moved since the lock was taken: the member is a restart until healed
$pausePlain();
var_dump($t->validity($k) > 0);
echo 'cluster member, tracked: ', $t->getLastErrors()[0], "\n";
var_dump(is_array($t->extend($k, 30000)));
$pausePlain();
var_dump($t->validity($k) > 0);
echo 'after the extend: ', json_encode($t->getLastErrors()[0]), "\n";
echo 'rival: ', $rival->lock($k['resource'], 1000) ? 'TOOK IT' : 'refused', "\n";
var_dump($r->unlock($u), $t->unlock($k));
// unlock() returns on a quorum: with both plain servers first, the cluster member's delete may still be on its way
echo 'gone from the new master: ', json_encode(rt_settled(fn () => [rt_redis($to, 'EXISTS', $u['resource']), rt_redis($to, 'EXISTS', $k['resource'])])), "\n";
?>
--EXPECT--
locked: [true,true] on the first master: [true,true]
moved to the second master with their ttl: [true,true]
bool(true)
cluster member after MOVED: null
rival: refused
bool(true)
cluster member, tracked: the master changed since the lock was taken: not counted until healed
bool(true)
bool(true)
after the extend: null
rival: refused
bool(true)
bool(true)
gone from the new master: [0,0]
