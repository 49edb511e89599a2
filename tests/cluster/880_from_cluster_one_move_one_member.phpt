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
    }, 2.0 * rt_time_scale()) || rt_fatal('the members did not write their keys: ' . json_encode($out));
    return $out;
};
$lowest = fn (int $port) => cl_nodes()[$port]['slots'][0][0];
$rounds = $won = 0;
foreach ([[0, 1, 'tag'], [0, 2, 'tag'], [1, 0, 'tag'], [1, 2, 'tag'], [2, 0, 'tag'], [2, 1, 'tag'],
    [0, 1, 'lowest'], [0, 2, 'lowest'], [1, 2, 'lowest']] as [$i, $j, $which]) {
    $holder = RedLock::fromCluster($seeds, 20, 1);
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
echo "moves: $rounds, a rival won: $won\n";
// the holder is healed by renewal as before: a new holder after the last move holds on every member
$holder = RedLock::fromCluster($seeds, 20, 1);
$l = $holder->lock(rt_key('after'), 30000);
echo 'a lock after the moves is on three masters: ', $l && count(array_unique(array_column($placed(rt_key('after')), 0))) === 3 ? 'yes' : 'no', "\n";
$l && $holder->unlock($l);
?>
--EXPECT--
moves: 9, a rival won: 0
a lock after the moves is on three masters: yes
