<?php
/**
 * The figures of bench/fair.sh from the workers' lines (bench/fair.php):
 *   php fair_report.php [--monitor=FILE] [--limit=L] WINDOW_S WAITERS FILE...
 * Only holds acquired within the first WINDOW_S seconds after the first acquisition count.
 * - hand-over: from a holder's unlock() call to the next holder's lock() returning (ms), p50/p99; with
 *   --limit (a semaphore of L slots, bench/fair.sh --semaphore): the releases and the acquisitions in
 *   time order, each acquisition paired with the earliest release not yet paired (the slot it freed is
 *   the first taken again), counted when its call was already waiting at that release;
 * - hand-overs per second;
 * - bypasses: holds won by a call that started more than 10 ms after another call that was still
 *   waiting (that one got the lock later): acquisition order against the calls' start;
 * - with --monitor=FILE (bench/fair.sh --tickets: server 0's MONITOR log): ticket_bypasses, acquisition
 *   order against the tickets themselves (ticket_bypasses() below);
 * - Jain's index of the holds per waiter: (sum x)^2 / (n * sum x^2) over all WAITERS (one that never
 *   held counts 0), 1 when every waiter held alike.
 */
$args = array_slice($argv, 1);
$monitor = null;
$limit = 0;
while (isset($args[0]) && str_starts_with($args[0], '--')) {
    $opt = array_shift($args);
    if (str_starts_with($opt, '--monitor=')) {
        $monitor = substr($opt, strlen('--monitor='));
    } elseif (str_starts_with($opt, '--limit=')) {
        $limit = (int) substr($opt, strlen('--limit='));
    }
}
$window = (float) $args[0];
$waiters = (int) $args[1];
$rows = [];
$cpu = 0.0;
foreach (array_slice($args, 2) as $file) {
    foreach (file($file, FILE_IGNORE_NEW_LINES | FILE_SKIP_EMPTY_LINES) as $line) {
        $p = explode(' ', $line);
        if ($p[0] === 'cpu' && count($p) === 3) {
            $cpu += (float) $p[1] + (float) $p[2];
        } elseif (count($p) === 4 || count($p) === 5) {
            $rows[] = [$p[0], (int) $p[1], (int) $p[2], (int) $p[3], $p[4] ?? ''];
        }
    }
}
usort($rows, fn ($a, $b) => $a[2] <=> $b[2]);
if ($rows === []) {
    echo "holds=0\n";
    exit;
}
$t0 = $rows[0][2];
$rows = array_values(array_filter($rows, fn ($r) => $r[2] - $t0 <= $window * 1e9));
$lat = $limit > 0 ? slot_handovers($rows) : [];
for ($k = 1; $limit === 0 && $k < count($rows); $k++) {
    if ($rows[$k][1] < $rows[$k - 1][3]) { // it was waiting when the previous holder released
        $lat[] = ($rows[$k][2] - $rows[$k - 1][3]) / 1e6;
    }
}
sort($lat);
$pct = fn ($q) => $lat === [] ? NAN : $lat[min(count($lat) - 1, (int) floor(count($lat) * $q))];
$bypass = 0;
$n = count($rows);
for ($j = 0; $j < $n; $j++) {
    for ($i = $j + 1; $i < $n; $i++) { // acquired after j
        if ($rows[$i][1] + 10e6 < $rows[$j][1]) { // and called more than 10 ms before j
            $bypass++;
            break;
        }
    }
}
[$ticketBypass, $matched] = $monitor === null ? [null, 0] : ticket_bypasses($rows, $monitor);
$per = [];
foreach ($rows as $r) {
    $per[$r[0]] = ($per[$r[0]] ?? 0) + 1;
}
$zeros = max(0, $waiters - count($per));
$sum = array_sum($per);
$sq = array_sum(array_map(fn ($x) => $x * $x, $per));
$span = ($rows[$n - 1][2] - $t0) / 1e9;
printf("holds=%d waiters=%d handovers_per_s=%.1f p50_ms=%.2f p99_ms=%.2f bypasses=%d jain=%.4f min_holds=%d max_holds=%d workers_cpu_s=%.2f%s\n",
    $n, count($per), $span > 0 ? ($n - 1) / $span : 0, $pct(0.5), $pct(0.99), $bypass, $sum * $sum / ((count($per) + $zeros) * $sq),
    $zeros > 0 ? 0 : min($per), max($per), $cpu,
    $ticketBypass === null ? '' : " ticket_bypasses=$ticketBypass ticket_holds=$matched");

/**
 * Bypasses by the tickets: server 0's MONITOR log (redis-cli monitor, direct, not through the proxy)
 * has every fair attempt with its token, waiter id and ticket (RL_SCRIPT_FAIR_LOCK's ARGV), in the
 * order that server ran them. A hold (found by its token) is a bypass when a hold acquired after it
 * belongs to a waiter that was already queued there (its first queued attempt ran before the
 * winning attempt) with a smaller ticket; a hold won without a ticket (the first attempt, not
 * queued) is one when any such waiter was queued. [bypasses, holds matched].
 */
function ticket_bypasses(array $rows, string $file): array
{
    $attempt = [];  // token => [id, ticket, seq]
    $queued = [];   // id => seq of its first queued attempt
    $seq = 0;
    foreach (new SplFileObject($file) as $line) {
        if (!is_string($line) || !str_contains($line, '"local me = ARGV[3]')) {
            continue;
        }
        preg_match_all('/"((?:[^"\\\\]|\\\\.)*)"/', $line, $m);
        $f = $m[1]; // EVAL, body, numkeys, key, token, ttl, id, ticket, heartbeat
        if (count($f) < 9) {
            continue;
        }
        $seq++;
        $attempt[$f[4]] = [$f[6], (int) $f[7], $seq];
        if ($f[6] !== '' && !isset($queued[$f[6]])) {
            $queued[$f[6]] = $seq;
        }
    }
    $holds = [];
    foreach ($rows as $r) {
        if (isset($attempt[$r[4]])) {
            $holds[] = $attempt[$r[4]];
        }
    }
    $bypass = 0;
    $n = count($holds);
    for ($k = 0; $k < $n; $k++) {
        [$idK, $ticketK, $wonAt] = $holds[$k];
        for ($j = $k + 1; $j < $n; $j++) {
            [$idJ, $ticketJ] = $holds[$j];
            if ($idJ !== '' && ($queued[$idJ] ?? PHP_INT_MAX) < $wonAt && ($idK === '' || $ticketJ < $ticketK)) {
                $bypass++;
                break;
            }
        }
    }
    return [$bypass, $n];
}

/**
 * A semaphore's hand-overs (ms): releases and acquisitions merged in time order; an acquisition takes the
 * earliest release not yet taken (none: a slot that was free, not handed over), and counts when its call
 * started before that release (it was waiting when the slot was freed).
 */
function slot_handovers(array $rows): array
{
    $events = [];
    foreach ($rows as $r) {
        $events[] = [$r[2], 1, $r[1]]; // acquired at, kind, its call's start
        $events[] = [$r[3], 0, 0];     // released at (the unlock() call)
    }
    usort($events, fn ($a, $b) => $a[0] <=> $b[0] ?: $a[1] <=> $b[1]);
    $freed = new SplQueue();
    $lat = [];
    foreach ($events as [$at, $kind, $call]) {
        if ($kind === 0) {
            $freed->enqueue($at);
        } elseif (!$freed->isEmpty()) {
            $release = $freed->dequeue();
            if ($call < $release) {
                $lat[] = ($at - $release) / 1e6;
            }
        }
    }
    return $lat;
}
