--TEST--
Self-healing by kind: the autoExtend renewal writes a lost key back by itself; a semaphore's slot key, a fenced lock's key and a multi-resource lock's keys (all or none on a member) are written back by extend(); a shared holder is not (documented: its one creating script would rewrite our deadline), and its extend() still succeeds on the quorum
--EXTENSIONS--
redlock
--FILE--
<?php
require __DIR__ . '/../inc/redlock_test.inc';
$ports = rt_ports();
$key = rt_key();
$holds = fn (int $m, string $k, string $token) => rt_redis($ports[$m], 'GET', $k) === $token;
/* extend() (at most 5 times) until every member in $lost holds $token in each of $keys again */
$heal = function (RedLock $r, array $lock, array $keys, array $lost) use ($holds): string {
    for ($i = 1; $i <= 5; $i++) {
        if (!is_array($r->extend($lock, 10000))) {
            return 'extend() false';
        }
        $back = function () use ($keys, $lost, $holds, $lock) {
            foreach ($lost as $m) {
                foreach ($keys as $k) {
                    if (!$holds($m, $k, $lock['token'])) {
                        return false;
                    }
                }
            }
            return true;
        };
        if (rt_eventually($back, 0.3)) {
            return 'healed';
        }
    }
    return 'not healed after 5 extends';
};

echo "-- autoExtend: the renewal (every ttl/3) writes it back, no extend() called\n";
// renewed every ttl/3: a busy machine may delay one by a second, a machine busier than its cores by more (the
// ttl and the timeout grow with the load per core, as renewal/700's do: 1 on a machine no busier than its cores)
$ttl = (int) (max(1500, 600 * rt_time_scale()) * rt_load_scale());
// with 2 of 5 keys gone one slow answer loses it: the server timeout scales under valgrind with the ttl
$auto = new RedLock(rt_servers(5, 0.5 * rt_time_scale() * rt_load_scale()), 10, 0, ['autoExtend' => true]);
$lock = $auto->lock("$key:auto", $ttl);
rt_redis($ports[0], 'DEL', "$key:auto");
rt_redis($ports[3], 'DEL', "$key:auto");
var_dump(rt_eventually(fn () => $holds(0, "$key:auto", $lock['token']) && $holds(3, "$key:auto", $lock['token']), 3 * $ttl / 1000));
usleep((int) ($ttl * 1000 * 1.5)); // renewed past its first ttl: still held everywhere
var_dump($auto->validity($lock) > 0, count(array_filter(rt_values("$key:auto"), fn ($v) => $v === $lock['token'])));
var_dump($auto->unlock($lock));

$r = new RedLock(rt_servers(), 10, 0);
echo "-- semaphore: the slot key\n";
$sem = $r->lockSemaphore("$key:sem", 2, 10000);
$slot = "$key:sem:slot:" . $sem['slot'];
rt_redis($ports[1], 'DEL', $slot);
rt_redis($ports[2], 'DEL', $slot);
echo $heal($r, $sem, [$slot], [1, 2]), "\n";
var_dump(rt_redis($ports[1], 'EXISTS', "$key:sem:slot:" . (1 - $sem['slot'])));
$r->unlock($sem);

echo "-- fenced: the key (its counter is not the lock's: see the guide)\n";
$fencing = new RedLock(rt_servers(), 10, 0, ['fencing' => true]);
$fenced = $fencing->lock("$key:fenced", 10000);
rt_redis($ports[4], 'DEL', "$key:fenced");
echo $heal($fencing, $fenced, ["$key:fenced"], [4]), "\n";
$fencing->unlock($fenced);

echo "-- several resources: all or none on a member\n";
$multi = $r->lock(["$key:a", "$key:b"], 10000);
rt_redis($ports[0], 'DEL', "$key:a", "$key:b");  // both gone: both written back
rt_redis($ports[1], 'DEL', "$key:a");            // one gone, the other ours: left as it is
echo $heal($r, $multi, ["$key:a", "$key:b"], [0]), "\n";
usleep(100000);
var_dump(rt_redis($ports[1], 'EXISTS', "$key:a"), $holds(1, "$key:b", $multi['token']));
$r->unlock($multi);

echo "-- shared: not written back; extend() still true on the quorum\n";
$shared = $r->lockShared("$key:shared", 10000);
rt_redis($ports[2], 'DEL', "$key:shared");
for ($i = 0; $i < 3; $i++) {
    var_dump(is_array($r->extend($shared, 10000)));
}
usleep(100000);
var_dump(rt_redis($ports[2], 'EXISTS', "$key:shared"));
$r->unlock($shared);
foreach (['auto', 'sem', 'fenced', 'fenced:fence', 'a', 'b', 'shared', 'sem:slot:0', 'sem:slot:1'] as $k) {
    rt_del("$key:$k");
}
?>
--EXPECTF--
-- autoExtend: the renewal (every ttl/3) writes it back, no extend() called
bool(true)
bool(true)
int(5)
bool(true)
-- semaphore: the slot key
healed
int(0)
-- fenced: the key (its counter is not the lock's: see the guide)
healed
-- several resources: all or none on a member
healed
int(0)
bool(true)
-- shared: not written back; extend() still true on the quorum
bool(true)
bool(true)
bool(true)
int(0)
