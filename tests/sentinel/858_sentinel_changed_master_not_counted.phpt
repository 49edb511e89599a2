--TEST--
Sentinel members: a member whose master changed since the lock was taken counts as not holding it for validity() and extend(), even where the promoted replica has our key by replication; an extend() won on the other members adopts it (self-healing), and from then on it counts again
--EXTENSIONS--
redlock
--SKIPIF--
<?php require __DIR__ . '/../inc/sentinel.inc'; sn_skipif(); ?>
--FILE--
<?php
require __DIR__ . '/../inc/sentinel.inc';
$members = sn_start(3, 0);
$r = new RedLock(array_map(fn ($m) => sn_uri($m), $members), 10, 1, ['maxExtensions' => 100]); // tracked locks
$first = rt_key('a');
$second = rt_key('b');
$third = rt_key('c');
$a = $r->lock($first, 30000);
$b = $r->lock($second, 30000);
$c = $r->lock($third, 30000);
var_dump(is_array($a), is_array($b));
$replica = $members[0]['replica']['port'];
$deadline = microtime(true) + 5;
while ((rt_redis($replica, 'GET', $first) !== $a['token'] || rt_redis($replica, 'GET', $second) !== $b['token']
        || rt_redis($replica, 'GET', $third) !== $c['token'])
    && microtime(true) < $deadline) {
    usleep(20000);
}
echo "replicated: ", rt_redis($replica, 'GET', $first) === $a['token'] ? 'yes' : 'no', "\n";
$old = $members[0]['master']['port'];
$new = sn_failover($members[0]);
rt_redis($old, 'REPLICAOF', '127.0.0.1', (string) $new); // what Sentinel sends a demoted master
rt_redis($old, 'CLIENT', 'KILL', 'TYPE', 'normal');
echo "the promoted replica holds both: ", json_encode([rt_redis($new, 'GET', $first) === $a['token'],
    rt_redis($new, 'GET', $second) === $b['token']]), "\n";

$r->validity($b); // member 0 asks its sentinels and connects to the new master (slow under valgrind)
/* $a: member 1 loses its key too (a restart without persistence). Held by member 2 alone and by a
 * member that changed under the lock: not a quorum. */
rt_redis($members[1]['master']['port'], 'DEL', $first);
var_dump($r->validity($a));
echo "member 0: ", $r->getLastErrors()[0], "\n";
var_dump($r->extend($a, 30000));

/* $b: members 1 and 2 hold it: valid, member 0 not counted; extend() wins on 1 and 2 and adopts 0,
 * which then counts when member 1 loses its key. Member 2 is paused for 300 ms (less than its 0.5 s
 * timeout) so that member 0's answer is not one the call stops waiting for once it has a quorum. */
$two = $members[2]['master']['port'];
rt_redis($two, 'CLIENT', 'PAUSE', '300');
var_dump($r->validity($b) > 0);
echo "member 0: ", $r->getLastErrors()[0], "\n";
rt_redis($two, 'CLIENT', 'PAUSE', '300');
var_dump(is_array($r->extend($b, 30000)), rt_redis($new, 'PTTL', $second) > 29000);
rt_redis($members[1]['master']['port'], 'DEL', $second);
var_dump($r->validity($b) > 0, $r->getLastErrors()[0]);
var_dump($r->unlock($b));

/* $c: this time member 0 (the promoted replica) is the slow one, 300 ms. A member that may have changed
 * masters is awaited by extend() rather than left behind once members 1 and 2 made the quorum: it is
 * adopted, and counts when member 1 loses its key. */
rt_redis($new, 'CLIENT', 'PAUSE', '300');
var_dump(is_array($r->extend($c, 30000)));
rt_redis($members[1]['master']['port'], 'DEL', $third);
var_dump($r->validity($c) > 0, $r->unlock($c));
?>
--EXPECT--
bool(true)
bool(true)
replicated: yes
the promoted replica holds both: [true,true]
bool(false)
member 0: the master changed since the lock was taken: not counted until healed
bool(false)
bool(true)
member 0: the master changed since the lock was taken: not counted until healed
bool(true)
bool(true)
bool(true)
NULL
bool(true)
bool(true)
bool(true)
bool(true)
