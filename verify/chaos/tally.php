<?php
/* What verify/chaos/run.php and verify/chaos/netchaos.php do with the workers' reports once a run ended: sum
 * them, check that no two use intervals of a resource overlap, and count lost counter updates on
 * the guard server. One place, so that both runs judge exclusion alike. */

/**
 * Reads and deletes the reports verify/chaos/worker.php left in $runDir ($runId-wN.json, .lat, .iv, .err).
 * @return array{sum: array<string,int>, per_resource: list<int>, examples: list<string>, missing: int,
 *   latencies: list<float>, first_violation_ns: ?int, interval_overlaps: int, interval_example: ?string}
 */
function chaos_tally(string $runDir, string $runId, int $workers, int $resources): array
{
    $sum = array_fill_keys(['acquisitions', 'lock_false', 'unlock_false', 'overlap_within_validity',
        'overlap_after_expiry', 'overlap_ambiguous', 'overlap_on_exit', 'overruns', 'late_writes', 'calls',
        'lost_while_held'], 0);
    $starts = $ends = [];
    $perResource = array_fill(0, $resources, 0);
    $latencies = $examples = [];
    $missing = 0;
    $firstViolation = null;   /* hrtime of the earliest violation seen by a worker or below */
    for ($w = 0; $w < $workers; $w++) {
        $base = "$runDir/$runId-w$w";
        $err = (string) @file_get_contents("$base.err");
        if ($err !== '') {
            fwrite(STDERR, "worker $w: $err");
        }
        $t = is_file("$base.json") ? json_decode(file_get_contents("$base.json"), true) : null;
        if ($t !== null) {
            foreach ($sum as $k => $_) {
                $sum[$k] += $t[$k] ?? 0;
            }
            foreach ($t['per_resource'] as $r => $n) {
                $perResource[$r] = ($perResource[$r] ?? 0) + $n; /* fair workers' resources follow the others' */
            }
            $examples = array_merge($examples, $t['examples']);
            if (($t['first_violation_ns'] ?? null) !== null) {
                $firstViolation = min($firstViolation ?? PHP_INT_MAX, $t['first_violation_ns']);
            }
            $raw = (string) @file_get_contents("$base.lat");
            if ($raw !== '') {
                array_push($latencies, ...array_values(unpack('g*', $raw)));
            }
            $raw = (string) @file_get_contents("$base.iv");
            for ($o = 0, $len = strlen($raw); $o + 24 <= $len; $o += 24) {
                [, $r, $from, $to] = unpack('q3', $raw, $o);
                $starts[$r][] = $from;
                $ends[$r][] = $to;
            }
        } else {
            $missing++;
        }
        foreach (['err', 'json', 'lat', 'iv'] as $ext) {
            @unlink("$base.$ext");
        }
    }
    sort($latencies);
    /* The lock's promise: use intervals [acquired, min(unlock called, valid until)] of one
     * resource never overlap, whichever processes held them. */
    $overlaps = 0;
    $example = null;
    foreach ($starts as $r => $from) {
        $to = $ends[$r];
        array_multisort($from, $to);
        $reach = PHP_INT_MIN;
        foreach ($from as $k => $start) {
            if ($start < $reach) {
                $overlaps++;
                $firstViolation = min($firstViolation ?? PHP_INT_MAX, $start);
                $example ??= sprintf('resource %d: acquired %.3f ms before the previous holder stopped', $r, ($reach - $start) / 1e6);
            }
            $reach = max($reach, $to[$k]);
        }
    }
    return ['sum' => $sum, 'per_resource' => $perResource, 'examples' => $examples, 'missing' => $missing,
        'latencies' => $latencies, 'first_violation_ns' => $firstViolation, 'interval_overlaps' => $overlaps,
        'interval_example' => $example];
}

/** Counter updates lost on the guard server: |acquisitions of a resource - its counter|, summed. */
function chaos_lost_updates(int $guardPort, string $runId, array $perResource): int
{
    $guard = Resp::connect($guardPort);
    $lost = 0;
    foreach ($perResource as $r => $n) {
        $lost += abs($n - (int) $guard->call('GET', "chaos:$runId:counter:$r"));
    }
    $guard->close();
    return $lost;
}

/** The run's tally and its check beside the histories: in lock mode the guard counter's lost updates,
 * in the other modes the primitives' use intervals (tally_primitives.php). [tally, lost, primitives]. */
function chaos_checked_tally(string $runDir, string $runId, int $workers, array $cfg, int $guardPort): array
{
    $tally = chaos_tally($runDir, $runId, $workers, (int) $cfg['resources']);
    if ($cfg['mode'] === 'lock') {
        return [$tally, chaos_lost_updates($guardPort, $runId, $tally['per_resource']), null];
    }
    /* no guard counter: the use intervals are the check */
    return [$tally, 0, chaos_primitives_check($runDir, $runId, $workers, $cfg['mode'], (int) $cfg['limit'])];
}

/** Whether any of the workers' processes still runs. */
function chaos_any_running(array $procs): bool
{
    foreach ($procs as $p) {
        if (proc_get_status($p)['running']) {
            return true;
        }
    }
    return false;
}

/** Runs $stop (what a run started: servers, proxies) at exit, also on SIGINT and SIGTERM (then exits 130). */
function chaos_stop_on_exit(callable $stop): void
{
    register_shutdown_function($stop);
    pcntl_async_signals(true);
    foreach ([SIGINT, SIGTERM] as $sig) {
        pcntl_signal($sig, function () use ($stop) {
            $stop();
            exit(130);
        });
    }
}

/** Closes the workers' processes at the end of a run, killing (and naming) any that overran the hard time bound. */
function chaos_reap(array $procs): void
{
    foreach ($procs as $w => $p) {
        if (proc_get_status($p)['running']) {
            proc_terminate($p, SIGKILL);
            fwrite(STDERR, "worker $w overran the hard time bound and was killed\n");
        }
        proc_close($p);
    }
}

/** A violation of exclusion. Overlaps where a holder had stalled past its validity are reported,
 * not failed: no lock can stop a paused process from acting late (fencing tokens, seed 001). */
function chaos_violated(array $tally, int $lost): bool
{
    $sum = $tally['sum'];
    return $tally['interval_overlaps'] > 0 || $sum['overlap_within_validity'] > 0 || $sum['overlap_on_exit'] > 0
        || $lost - $sum['late_writes'] > 0 || $tally['missing'] > 0 || $sum['acquisitions'] === 0;
}
