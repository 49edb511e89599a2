--TEST--
Atomic slot migration (Redis 8.6 CLUSTER MIGRATION IMPORT, Valkey 9 CLUSTER MIGRATESLOTS) under held locks: a cluster:// member beside two servers, and RedLock::fromCluster() with the slot of member 2's tag moved to member 0's master (one member placed anew: held, healed by extend()) and of member 0's tag to member 1's master (one member placed anew too: a move re-places only the member whose slot moved); a rival, long-lived or fresh, never wins while the holder's validity() says held, during the migration and after; the moved member's vote is not counted until healed
--EXTENSIONS--
redlock
--SKIPIF--
<?php require __DIR__ . '/native.inc'; nt_skip_without_clusters(); ?>
--FILE--
<?php
require __DIR__ . '/native.inc';
require __DIR__ . '/../inc/cluster.inc'; // cl_slot()
$scale = rt_time_scale();

/** Migrates $slot from $from to $to while the holder checks and rivals try; until every master agrees, then 2
 * rounds more. The rounds in which a rival won while the holder's validity() said held (none, or a violation). */
function nt_watch(string $kind, array $ports, int $slot, int $from, int $to, RedLock $holder, array $l, callable $rivals): int
{
    $violations = 0;
    nt_migrate($kind, $slot, $from, $to);
    $deadline = microtime(true) + 10 * rt_time_scale();
    $after = 0;
    for ($round = 0; $round < 1000 && $after < 2 && microtime(true) < $deadline; $round++) {
        $settled = nt_slot_settled($ports, $slot, $to);
        foreach ($rivals() as $rival) {
            $won = $rival->lock($l['resource'], 1000);
            $held = $holder->validity($l) !== false;
            if ($won) {
                $violations += $held ? 1 : 0;
                $held && print(json_encode(['round' => $round, 'settled' => $settled, 'holder' => $holder->getLastErrors()]) . "\n");
                $rival->unlock($won);
            }
        }
        $after += $settled ? 1 : 0;
        usleep(10000);
    }
    $after >= 2 || rt_fatal("the migration of slot $slot to $to did not settle");
    return $violations;
}

/** Member i => [port, tag] of a fromCluster() lock's keys ("{rl<i>.<k>}" first). */
function nt_members(array $ports, string $resource): array
{
    $out = [];
    rt_eventually(function () use ($ports, $resource, &$out) {
        $out = [];
        foreach ($ports as $p) {
            foreach ((array) rt_redis($p, 'KEYS', '{rl*}' . $resource) as $key) {
                $tag = substr($key, 0, strpos($key, '}') + 1);
                $out[(int) substr($tag, 3, strpos($tag, '.') - 3)] = [$p, $tag];
            }
        }
        ksort($out);
        return count($out) === 3;
    }, 2.0 * rt_time_scale());
    return $out;
}

foreach (['redis 8.6' => 'redis', 'valkey 9' => 'valkey'] as $name => $kind) {
    $ports = nt_cluster_ports($kind);
    $plain = nt_ports($kind);
    $seeds = implode(',', array_map(fn ($p) => "127.0.0.1:$p", $ports)) . '?timeout=' . min(60.0, 1.0 * $scale);

    // a cluster member beside two servers of the same kind: its key migrates with the slot, to another master
    $servers = ["cluster://$seeds", ['127.0.0.1', $plain[0], 1.0], ['127.0.0.1', $plain[1], 1.0]];
    $holder = new RedLock($servers, 20, 1, ['maxExtensions' => 100]); // tracked: the lease keeps each vote's master
    $rival = new RedLock($servers, 20, 1);
    $l = $holder->lock(rt_key("member-$kind"), 30000) ?: rt_fatal('not locked');
    $slot = cl_slot($l['resource']);
    $from = nt_slot_owner($ports[0], $slot);
    $to = $ports[(array_search($from, $ports, true) + 1) % 3];
    $violations = nt_watch($kind, $ports, $slot, $from, $to, $holder, $l, fn () => [$rival]);
    foreach ([$plain[0], $plain[1]] as $p) { // the other members answer late: the moved member's own reply is read
        rt_redis($p, 'CLIENT', 'PAUSE', (string) (int) (300 * $scale));
    }
    $holder->validity($l);
    $said = $holder->getLastErrors()[0];
    $healed = is_array($holder->extend($l, 30000));
    foreach ([$plain[0], $plain[1]] as $p) {
        rt_redis($p, 'CLIENT', 'PAUSE', (string) (int) (300 * $scale));
    }
    $holder->validity($l);
    echo "$name, a cluster member: a rival won while held: ", $violations ? "$violations times" : 'never',
        "; then the moved member: $said; healed by extend(): ", $healed && $holder->getLastErrors()[0] === null ? 'yes' : json_encode($holder->getLastErrors()),
        '; rival: ', $rival->lock($l['resource'], 1000) ? 'TOOK IT' : 'refused', "\n";
    $holder->unlock($l);

    // fromCluster(): the slot of member $moved's tag to the master of member $onto
    foreach ([[2, 0], [0, 1]] as [$moved, $onto]) {
        $holder = RedLock::fromCluster($seeds, 20, 1, ['maxExtensions' => 100]);
        $rival = RedLock::fromCluster($seeds, 20, 1);
        $l = $holder->lock(rt_key("from-$kind-$moved"), 30000) ?: rt_fatal('not locked');
        $members = nt_members($ports, $l['resource']);
        $slot = cl_slot($members[$moved][1]);
        $n = 0;
        $rivals = function () use ($rival, $seeds, &$n) { // the long-lived rival, and a fresh one every third round
            return ++$n % 3 === 0 ? [$rival, RedLock::fromCluster($seeds, 20, 1)] : [$rival];
        };
        // one member placed anew, the one whose slot moved (docs/design/cluster.md#fromcluster-placement): rivals
        // during the migration too
        $violations = nt_watch($kind, $ports, $slot, $members[$moved][0], $members[$onto][0], $holder, $l, $rivals);
        for ($i = 0; $i < 3; $i++) { // the calls that meet the move (a MOVED read after the quorum counts from the next)
            $holder->validity($l);
        }
        for ($i = 0; $i < 6; $i++) {
            foreach ($rivals() as $one) {
                $won = $one->lock($l['resource'], 1000);
                $v = $holder->validity($l);
                if ($won && $v !== false) { // what the holder counted, and where each process wrote
                    $violations++;
                    echo json_encode(['holder' => $holder->getLastErrors(), 'before' => $members, 'now' => nt_members($ports, $l['resource'])]), "\n";
                }
                $won && $one->unlock($won);
            }
        }
        $held = $holder->validity($l) !== false;
        $healed = $held && is_array($holder->extend($l, 30000));
        $fresh = RedLock::fromCluster($seeds, 20, 1);
        $won = $fresh->lock($l['resource'], 1000);
        $held = $holder->validity($l) !== false;
        echo "$name, fromCluster(), member $moved's slot to member $onto's master: a rival won while held: ",
            $violations ? "$violations times" : 'never', '; the holder: ', $held ? 'held' : 'lost',
            ', healed by extend(): ', $healed ? 'yes' : 'no', '; a fresh rival while held: ', $won && $held ? 'TOOK IT' : 'never', "\n";
        $won && $fresh->unlock($won);
        $holder->unlock($l);
    }
}
?>
--EXPECT--
redis 8.6, a cluster member: a rival won while held: never; then the moved member: the master changed since the lock was taken: not counted until healed; healed by extend(): yes; rival: refused
redis 8.6, fromCluster(), member 2's slot to member 0's master: a rival won while held: never; the holder: held, healed by extend(): yes; a fresh rival while held: never
redis 8.6, fromCluster(), member 0's slot to member 1's master: a rival won while held: never; the holder: held, healed by extend(): yes; a fresh rival while held: never
valkey 9, a cluster member: a rival won while held: never; then the moved member: the master changed since the lock was taken: not counted until healed; healed by extend(): yes; rival: refused
valkey 9, fromCluster(), member 2's slot to member 0's master: a rival won while held: never; the holder: held, healed by extend(): yes; a fresh rival while held: never
valkey 9, fromCluster(), member 0's slot to member 1's master: a rival won while held: never; the holder: held, healed by extend(): yes; a fresh rival while held: never
