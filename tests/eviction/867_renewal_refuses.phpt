--TEST--
Eviction guard in the renewal thread (issue 33, item 6: vote guards of renewal): two autoExtend locks of one object (renewed together in one round trip) on 3 servers with 'evictingServers' => 'refuse', two of which turn to allkeys-lru while they are held (their connections killed so that the policy is learnt again): the batched renewal does not count their votes, so both leases end with onLoss (renewal_failed, or expired at valgrind's pace) and validity() is false; a batch counting them would keep them
--EXTENSIONS--
redlock
--FILE--
<?php
require __DIR__ . '/../inc/redlock_test.inc';
$key = rt_key();
[$p0] = rt_ports();
$a = rt_spawn_server();
$b = rt_spawn_server();
$lost = [];
$redlock = new RedLock([['127.0.0.1', $p0, 3.0], ['127.0.0.1', $a['port'], 3.0], ['127.0.0.1', $b['port'], 3.0]], 10, 1,
    ['evictingServers' => 'refuse', 'autoExtend' => true,
     'onLoss' => function ($lock, string $why) use (&$lost) { $lost[] = $why; }]);
$ttl = (int) (1000 * rt_time_scale());
$locks = [$redlock->lock("$key-a", $ttl), $redlock->lock("$key-b", $ttl)];
var_dump($locks[0] !== false && $locks[1] !== false);
foreach ([$a['port'], $b['port']] as $p) {
    rt_redis($p, 'CONFIG', 'SET', 'maxmemory-policy', 'allkeys-lru');
    rt_redis($p, 'CLIENT', 'KILL', 'TYPE', 'normal'); // every connection of ours reopens and learns it
}
// the renewal comes about every ttl/3: within 3 ttls the lease must be gone
$gone = rt_eventually(function () use (&$lost) { return count($lost) === 2; }, 3 * $ttl / 1000);
// renewal_failed; expired where a renewal outlived the validity (valgrind's pace): either way, told
var_dump($gone, count(array_diff($lost, ['renewal_failed', 'expired'])), $redlock->validity($locks[0]) > 0 || $redlock->validity($locks[1]) > 0);
array_map([$redlock, 'unlock'], $locks);
?>
--EXPECT--
bool(true)
bool(true)
int(0)
bool(false)
