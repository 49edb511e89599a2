<?php
/* The checks of the lockSemaphore(), lockShared() and fencing chaos runs over the records that
 * verify/chaos/worker_primitives.php left ($runId-wN.pv: resource, from, to, extra), per resource:
 *   semaphore: never more than $limit use intervals overlap at any instant;
 *   shared:    an exclusive interval overlaps no other interval, shared or exclusive;
 *   fence:     no two intervals overlap, and in the order the holders acquired, each fence is
 *              strictly greater than the one before. */

/** @return array{records: int, exclusive_records: int, violations: int, max_overlap: int, example: ?string} */
function chaos_primitives_check(string $runDir, string $runId, int $workers, string $mode, int $limit): array
{
    $byResource = [];
    for ($w = 0; $w < $workers; $w++) {
        $file = "$runDir/$runId-w$w.pv";
        $raw = (string) @file_get_contents($file);
        for ($o = 0, $len = strlen($raw); $o + 32 <= $len; $o += 32) {
            [, $r, $from, $to, $extra] = unpack('q4', $raw, $o);
            $byResource[$r][] = [$from, $to, $extra];
        }
        @unlink($file);
    }
    $records = $violations = $maxOverlap = $exclusive = 0;
    $example = null;
    foreach ($byResource as $r => $list) {
        $records += count($list);
        $exclusive += $mode === 'shared' ? count(array_filter($list, fn ($x) => $x[2] === 1)) : 0;
        usort($list, fn ($a, $b) => $a[0] <=> $b[0]);
        if ($mode === 'fence') {
            $reach = PHP_INT_MIN;
            $lastFence = PHP_INT_MIN;
            foreach ($list as [$from, $to, $fence]) {
                if ($from < $reach) {
                    $violations++;
                    $example ??= sprintf('resource %d: two holders overlap by %.3f ms', $r, ($reach - $from) / 1e6);
                }
                if ($fence <= $lastFence) {
                    $violations++;
                    $example ??= sprintf('resource %d: fence %d after fence %d', $r, $fence, $lastFence);
                }
                $reach = max($reach, $to);
                $lastFence = $fence;
            }
            $maxOverlap = max($maxOverlap, 1);
            continue;
        }
        /* Sweep: ends before starts at the same instant (an interval is [from, to)). */
        $events = [];
        foreach ($list as $k => [$from, $to, $extra]) {
            $events[] = [$from, 1, $k];
            $events[] = [$to, -1, $k];
        }
        usort($events, fn ($a, $b) => [$a[0], $a[1]] <=> [$b[0], $b[1]]);
        $open = [];
        $exclusiveOpen = 0;
        foreach ($events as [$at, $step, $k]) {
            if ($step < 0) {
                unset($open[$k]);
                $exclusiveOpen -= $mode === 'shared' && $list[$k][2] === 1 ? 1 : 0;
                continue;
            }
            $open[$k] = true;
            $isExclusive = $mode === 'shared' && $list[$k][2] === 1;
            $exclusiveOpen += $isExclusive ? 1 : 0;
            $maxOverlap = max($maxOverlap, count($open));
            if ($mode === 'semaphore' && count($open) > $limit) {
                $violations++;
                $example ??= sprintf('resource %d: %d holders at once (limit %d)', $r, count($open), $limit);
            }
            if ($mode === 'shared' && $exclusiveOpen > 0 && count($open) > 1) {
                $violations++;
                $example ??= sprintf('resource %d: an exclusive holder overlaps %d other(s)', $r, count($open) - 1);
            }
        }
    }
    return ['records' => $records, 'exclusive_records' => $exclusive, 'violations' => $violations,
        'max_overlap' => $maxOverlap, 'example' => $example];
}
