--TEST--
Self-healing extend(): nothing more is sent while every member holds the key; where a member lost it (DEL by hand, as a restart without persistence), an extend() that holds a quorum writes it again (SET NX PX, the same ttl) on 1 and then 2 of 5; validity() never writes; another owner's key is never overwritten; with 3 of 5 gone extend() is false and no member gets the key back
--EXTENSIONS--
redlock
--FILE--
<?php
require __DIR__ . '/../inc/redlock_test.inc';
$ports = rt_ports();
$r = new RedLock(rt_servers(), 10, 0);
$key = rt_key();
$ttl = 10000;

/* extend() until the members in $lost hold our token again (at most 5 extends: a member whose "no"
 * came after the quorum is healed by the next one); how many extends that took, or why not */
$heal = function (array $lock, array $lost) use ($r, $key, $ports, $ttl): string {
    for ($i = 1; $i <= 5; $i++) {
        if (!is_array($r->extend($lock, $ttl))) {
            return 'extend() false';
        }
        $back = fn () => array_filter($lost, fn ($m) => rt_redis($ports[$m], 'GET', $key) !== $lock['token']) === [];
        if (rt_eventually($back, 0.3)) {
            return 'healed';
        }
    }
    return 'not healed after 5 extends';
};
$pttl = fn (int $m) => rt_redis($ports[$m], 'PTTL', $key);

$lock = $r->lock($key, $ttl);
var_dump(is_array($lock));

echo "-- every member holds it: extend() sends nothing more\n";
$sets = fn () => array_sum(array_map(fn ($p) => preg_match('/cmdstat_set:calls=(\d+)/', rt_redis($p, 'INFO', 'commandstats'), $m)
    ? (int) $m[1] : 0, $ports));
$before = $sets();
for ($i = 0; $i < 20; $i++) {
    $r->extend($lock, $ttl);
}
usleep(50000);
echo 'SETs sent by 20 extends: ', $sets() - $before, "\n";

echo "-- 1 of 5 lost\n";
rt_redis($ports[1], 'DEL', $key);
echo $heal($lock, [1]), "\n";
var_dump($pttl(1) > 0 && $pttl(1) <= $ttl);

echo "-- 2 of 5 lost\n";
rt_redis($ports[2], 'DEL', $key);
rt_redis($ports[4], 'DEL', $key);
echo $heal($lock, [2, 4]), "\n";
var_dump($pttl(2) > 0 && $pttl(2) <= $ttl, $pttl(4) > 0 && $pttl(4) <= $ttl);

echo "-- validity() is a read: it never writes the key again\n";
rt_redis($ports[3], 'DEL', $key);
var_dump($r->validity($lock) > 0);
usleep(100000);
var_dump($pttl(3));
echo $heal($lock, [3]), "\n";

echo "-- another owner's key on a member is never overwritten\n";
rt_redis($ports[0], 'SET', $key, 'another-owner', 'PX', '60000');
for ($i = 0; $i < 3; $i++) {
    var_dump(is_array($r->extend($lock, $ttl)));
}
usleep(100000);
var_dump(rt_redis($ports[0], 'GET', $key), $pttl(0) > 50000);

echo "-- no quorum: 3 of 5 gone (0 another owner's, 1 and 2 deleted): false, nothing written back\n";
rt_redis($ports[1], 'DEL', $key);
rt_redis($ports[2], 'DEL', $key);
var_dump($r->extend($lock, $ttl));
echo json_encode(array_slice($r->getLastErrors(), 0, 3)), "\n";
usleep(200000);
var_dump(rt_redis($ports[0], 'GET', $key), $pttl(1), $pttl(2));
var_dump(rt_redis($ports[3], 'GET', $key) === $lock['token'], rt_redis($ports[4], 'GET', $key) === $lock['token']);
rt_del($key);
?>
--EXPECT--
bool(true)
-- every member holds it: extend() sends nothing more
SETs sent by 20 extends: 0
-- 1 of 5 lost
healed
bool(true)
-- 2 of 5 lost
healed
bool(true)
bool(true)
-- validity() is a read: it never writes the key again
bool(true)
int(-2)
healed
-- another owner's key on a member is never overwritten
bool(true)
bool(true)
bool(true)
string(13) "another-owner"
bool(true)
-- no quorum: 3 of 5 gone (0 another owner's, 1 and 2 deleted): false, nothing written back
bool(false)
["taken","taken","taken"]
string(13) "another-owner"
int(-2)
int(-2)
bool(true)
bool(true)
