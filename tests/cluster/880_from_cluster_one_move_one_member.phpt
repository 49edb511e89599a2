--TEST--
RedLock::fromCluster(): one slot move re-places only the member whose slot moved: for every member i and every other member j, member i's tag slot moved onto member j's master, and the lowest slot of member i's master moved onto a master whose slots begin above it (what a resharding by redis-cli moves first), a fresh rival that learnt the new map never wins a lock a holder took before the move, before the holder has called again (a placement in which member j, or a member after it, follows the move, or an order of the masters by their lowest slot, would give the rival a quorum in that window)
--EXTENSIONS--
redlock
--SKIPIF--
<?php require __DIR__ . '/../inc/cluster.inc'; echo cl_skip_reason();
--FILE--
<?php
require __DIR__ . '/../inc/cluster.inc';
$seeds = getenv('REDLOCK_TEST_CLUSTER') . '?timeout=' . min(60.0, 2.0 * rt_time_scale());
/** Member => [master port, tag] of $resource, once every member wrote it. */
$placed = function (string $resource): array {
    $out = [];
    rt_eventually(function () use ($resource, &$out) {
        $out = [];
        foreach (cl_masters() as $p) {
            $k = cl_member_key($p, $resource);
            if ($k === null || !preg_match('/^\{rl(\d+)\.\d+\}/', $k, $m)) {
                return false;
            }
            $out[(int) $m[1]] = [$p, substr($k, 1, strpos($k, '}') - 1)];
        }
        ksort($out);
        return array_keys($out) === [0, 1, 2];
    }, 2.0 * rt_time_scale() * rt_load_scale()) || rt_fatal('the members did not write their keys: ' . json_encode(array_map(
        fn ($p) => rt_redis($p, 'KEYS', '*' . $resource), array_combine(cl_masters(), cl_masters()))));
    return $out;
};
$lowest = fn (int $port) => cl_nodes()[$port]['slots'][0][0];
// first, rl1.0's slot on member 0's master, so that in the first round a placement in member order (member m on
// the first master no member before it took) pushes members 1 and 2 both: member 0 on member 2's master frees
// member 0's for member 1's first candidate, and member 2 takes the master member 1 left
$probe = RedLock::fromCluster($seeds, 20, 1);
$probe->unlock($probe->lock(rt_key('warm'), 1000) ?: rt_fatal('warm-up not locked'));
$pl = $probe->lock(rt_key('probe'), 30000) ?: rt_fatal('probe not locked');
$at = $placed(rt_key('probe'));
$probe->unlock($pl);
if (cl_owner_of_slot(cl_slot('rl1.0')) !== $at[0][0] && cl_slot('rl1.0') !== cl_slot($at[0][1])) {
    cl_move_slot(cl_slot('rl1.0'), cl_owner_of_slot(cl_slot('rl1.0')), $at[0][0]);
}
$rounds = $won = 0;
foreach ([[0, 2, 'tag'], [0, 1, 'tag'], [1, 0, 'tag'], [1, 2, 'tag'], [2, 0, 'tag'], [2, 1, 'tag'],
    [0, 1, 'lowest'], [0, 2, 'lowest'], [1, 2, 'lowest']] as [$i, $j, $which]) {
    $holder = RedLock::fromCluster($seeds, 20, 1);
    // its connections open first: a member still connecting when the others made the quorum is not sent the lock
    $holder->unlock($holder->lock(rt_key('warm'), 1000) ?: rt_fatal('warm-up not locked'));
    $res = rt_key("r$i$j$which");
    $l = $holder->lock($res, 30000) ?: rt_fatal('not locked');
    $at = $placed($res);
    if ($which === 'lowest') {
        // the members' masters by their lowest slot: i-th and j-th of them (i < j), the lower one's lowest slot moved
        $by = array_column($at, 0);
        usort($by, fn ($a, $b) => $lowest($a) <=> $lowest($b));
        [$from, $to] = [$by[$i], $by[$j]];
        $slot = $lowest($from);
    } else {
        [$from, $to, $slot] = [$at[$i][0], $at[$j][0], cl_slot($at[$i][1])];
    }
    // a slot another member skipped for its tag (an rl<m>.<k'> before its own) places that member anew too, as
    // documented: not the move this test is about (about 1 in 5000 moves of 3 masters), left out
    $skipped = [];
    foreach ($at as $m => [, $tag]) {
        for ($k = 0, $own = (int) explode('.', $tag)[1]; $k < $own; $k++) {
            $skipped[cl_slot("rl$m.$k")] = true;
        }
    }
    if (isset($skipped[$slot])) {
        $holder->unlock($l);
        continue;
    }
    // every node agrees before the rival asks for the map
    cl_move_slot($slot, $from, $to);
    $rival = RedLock::fromCluster($seeds, 20, 1);
    $r = $rival->lock($res, 1000);
    if ($r) {
        $won++;
        echo "$which slot of member $i's master onto member $j's: a fresh rival won the held lock\n";
        $rival->unlock($r);
    }
    $rounds++;
    $holder->unlock($l);
}
echo 'moves: ', $rounds >= 7 ? '7 or more' : $rounds, ", a rival won: $won\n";
// the holder is healed by renewal as before: a new holder after the last move holds on every member
$holder = RedLock::fromCluster($seeds, 20, 1);
$holder->unlock($holder->lock(rt_key('warm'), 1000) ?: rt_fatal('warm-up not locked'));
$l = $holder->lock(rt_key('after'), 30000);
echo 'a lock after the moves is on three masters: ', $l && count(array_unique(array_column($placed(rt_key('after')), 0))) === 3 ? 'yes' : 'no', "\n";
$l && $holder->unlock($l);
?>
--EXPECT--
moves: 7 or more, a rival won: 0
a lock after the moves is on three masters: yes
