<?php
/**
 * Turns bench/run.sh's raw results into the table (Markdown, on stdout) and the plot.
 *   php report.php OUT_DIR [PNG_PATH]
 * Each figure is the median over rounds; ratios are taken within a round (the three
 * implementations ran back to back) and then their median, so slow spells of a loaded
 * machine cancel out.
 */
[$dir, $png] = array_slice($argv, 1, 2) + [null, ''];
if (!$dir || !is_file("$dir/results.tsv")) {
    fwrite(STDERR, "usage: php report.php OUT_DIR [PNG_PATH]\n");
    exit(2);
}

function median(array $values): float
{
    if (!$values) {
        return NAN;
    }
    sort($values);
    $n = count($values);
    return $n % 2 ? $values[intdiv($n, 2)] : ($values[$n / 2 - 1] + $values[$n / 2]) / 2;
}

function fields(string $text): array
{
    preg_match_all('/(\w+)=([0-9.]+)/', $text, $m);
    return array_combine($m[1], array_map('floatval', $m[2]));
}

function fmt_rate(float $v): string
{
    return is_nan($v) ? '-' : ($v >= 100 ? number_format($v, 0, '.', '') : number_format($v, 1, '.', ''));
}

function fmt_us(float $v): string
{
    return is_nan($v) ? '-' : ($v >= 1000 ? number_format($v / 1000, 2, '.', '') . ' ms' : number_format($v, 0, '.', '') . ' us');
}

function fmt_ratio(float $v): string
{
    return is_nan($v) ? '-' : number_format($v, 2, '.', '') . 'x';
}

// $cells[rtt][n][mode][impl][round] = fields
$cells = [];
foreach (file("$dir/results.tsv", FILE_IGNORE_NEW_LINES | FILE_SKIP_EMPTY_LINES) as $line) {
    [$round, $rtt, $n, $mode, $impl, $rest] = explode("\t", $line, 6);
    $f = fields($rest);
    $f['rate'] = $f['seconds'] > 0 ? $f['cycles'] / $f['seconds'] : NAN;
    $cells[$rtt][(int) $n][$mode][$impl][(int) $round] = $f;
}

$rttNames = ['loopback' => 'loopback', '1ms' => '1 ms'];
$modeNames = ['reused' => 'reused', 'percycle' => 'new per cycle'];
$summary = [];
/** A markdown table's first two lines: its header and the separator row, one column each. */
function md_table_head(array $columns): array
{
    return ['| ' . implode(' | ', $columns) . ' |', '|' . str_repeat('---|', count($columns))];
}

$out = [];
if (is_file("$dir/rtt.txt")) {
    $out[] = '```';
    foreach (file("$dir/rtt.txt", FILE_IGNORE_NEW_LINES) as $l) {
        $out[] = $l;
    }
    $out[] = '```';
    $out[] = '';
}
$out[] = 'Cycles/s (one cycle = lock + unlock of a fresh key), latency p50 / p99 per cycle, medians over rounds.';
$out[] = '';
array_push($out, ...md_table_head(['RTT', 'N', 'RedLock', 'extension c/s', 'p50 / p99', 'baseline c/s', 'p50 / p99', 'floor c/s', 'p50 / p99', 'ext / baseline', 'ext / floor', 'target']));
$misses = 0;
foreach ($rttNames as $rtt => $rttName) {
    foreach ([1, 3, 5, 7] as $n) {
        foreach ($modeNames as $mode => $modeName) {
            $c = $cells[$rtt][$n][$mode] ?? null;
            if ($c === null) {
                continue;
            }
            $row = "| $rttName | $n | $modeName |";
            foreach (['ext', 'baseline', 'floor'] as $impl) {
                $runs = $c[$impl] ?? [];
                $rate = median(array_column($runs, 'rate'));
                $summary[$rtt][$mode][$impl][$n] = $rate;
                $row .= ' ' . fmt_rate($rate) . ' | ' . fmt_us(median(array_column($runs, 'p50_us')))
                    . ' / ' . fmt_us(median(array_column($runs, 'p99_us'))) . ' |';
            }
            $vsBase = $vsFloor = [];
            foreach ($c['ext'] ?? [] as $round => $f) {
                if (isset($c['baseline'][$round])) {
                    $vsBase[] = $f['rate'] / $c['baseline'][$round]['rate'];
                }
                if (isset($c['floor'][$round])) {
                    $vsFloor[] = $f['rate'] / $c['floor'][$round]['rate'];
                }
            }
            $rb = median($vsBase);
            $rf = median($vsFloor);
            // The targets of issue 4 (reused connections; per-cycle mode has none yet).
            $target = '';
            if ($mode === 'reused' && $rtt === '1ms') {
                $ok = $rb >= 0.8 * $n && $rf >= 0.9;
                $target = sprintf('>= %.1fx base, >= 0.9x floor: %s', 0.8 * $n, $ok ? 'met' : 'MISSED');
                $misses += $ok ? 0 : 1;
            } elseif ($mode === 'reused' && ($n === 3 || $n === 5)) {
                $ok = $rf >= 0.9;
                $target = '>= 0.9x floor: ' . ($ok ? 'met' : 'MISSED');
                $misses += $ok ? 0 : 1;
            }
            $out[] = $row . ' ' . fmt_ratio($rb) . ' | ' . fmt_ratio($rf) . " | $target |";
        }
    }
}

// CPU time per cycle (user + sys of the client process): on loopback the cycle is CPU-bound, and
// this is less at the mercy of the scheduler than cycles/s on a busy machine.
$out[] = '';
$out[] = 'Client CPU time per cycle on loopback (user + sys of the process running the cycles, median over rounds):';
$out[] = '';
array_push($out, ...md_table_head(['N', 'RedLock', 'extension', 'baseline', 'floor']));
foreach ([1, 3, 5, 7] as $n) {
    foreach ($modeNames as $mode => $modeName) {
        $c = $cells['loopback'][$n][$mode] ?? null;
        if ($c === null) {
            continue;
        }
        $row = "| $n | $modeName |";
        foreach (['ext', 'baseline', 'floor'] as $impl) {
            $perCycle = [];
            foreach ($c[$impl] ?? [] as $f) {
                if (isset($f['cpu_us']) && $f['cycles'] > 0) {
                    $perCycle[] = $f['cpu_us'] / $f['cycles'];
                }
            }
            $row .= ' ' . fmt_us(median($perCycle)) . ' |';
        }
        $out[] = $row;
    }
}

if (is_file("$dir/contention.tsv")) {
    // $runs[rtt][impl][round] = [acquired, refused, seconds, processes]
    $runs = [];
    foreach (file("$dir/contention.tsv", FILE_IGNORE_NEW_LINES | FILE_SKIP_EMPTY_LINES) as $line) {
        [$round, $rtt, $impl, $seconds, $rest] = explode("\t", $line, 5);
        $f = fields($rest);
        $r = &$runs[$rtt][$impl][$round];
        $r['acquired'] = ($r['acquired'] ?? 0) + $f['acquired'];
        $r['refused'] = ($r['refused'] ?? 0) + $f['refused'];
        $r['seconds'] = (float) $seconds;
        $r['processes'] = ($r['processes'] ?? 0) + 1;
        unset($r);
    }
    $out[] = '';
    $out[] = 'Contention: P processes on one resource, N=5, retryDelay 20 ms, retryCount 3; each process locks, unlocks at once, repeats.';
    $out[] = 'Handoffs/s = successful lock() calls per second, all processes together; refused/s = lock() calls that returned false.';
    $out[] = '';
    array_push($out, ...md_table_head(['RTT', 'P', 'extension handoffs/s', 'refused/s', 'baseline handoffs/s', 'refused/s', 'ext / baseline']));
    foreach ($rttNames as $rtt => $rttName) {
        if (!isset($runs[$rtt])) {
            continue;
        }
        $row = "| $rttName | " . reset($runs[$rtt]['ext'])['processes'] . ' |';
        $rates = [];
        foreach (['ext', 'baseline'] as $impl) {
            foreach ($runs[$rtt][$impl] as $round => $r) {
                $rates[$impl][$round] = $r['acquired'] / $r['seconds'];
                $refused[$impl][$round] = $r['refused'] / $r['seconds'];
            }
            $row .= ' ' . fmt_rate(median($rates[$impl])) . ' | ' . fmt_rate(median($refused[$impl])) . ' |';
        }
        $ratios = [];
        foreach ($rates['ext'] as $round => $v) {
            if (!empty($rates['baseline'][$round])) {
                $ratios[] = $v / $rates['baseline'][$round];
            }
        }
        $out[] = $row . ' ' . fmt_ratio(median($ratios)) . ' |';
    }
}

if (is_file("$dir/callgrind.tsv")) {
    $ir = [];
    foreach (file("$dir/callgrind.tsv", FILE_IGNORE_NEW_LINES | FILE_SKIP_EMPTY_LINES) as $line) {
        [$impl, $cycles, $count] = explode("\t", $line);
        $ir[$impl][(int) $cycles] = (float) $count;
    }
    $perCycle = [];
    foreach ($ir as $impl => $byCycles) {
        ksort($byCycles);
        $counts = array_keys($byCycles);
        $k = end($counts);
        $perCycle[$impl] = $k > 0 ? ($byCycles[$k] - $byCycles[0]) / $k : NAN;
        $cgCycles = $k;
    }
    $harness = $perCycle['null'] ?? 0.0;
    $out[] = '';
    $out[] = "CPU per cycle in the PHP process: user-space instructions under callgrind (kernel time not included),"
        . " N=5 loopback, one RedLock reused, $cgCycles cycles minus a run with none. \"net\" subtracts the"
        . sprintf(' harness loop itself (the same loop over a class without I/O: %s per cycle).', number_format($harness, 0, '.', ','));
    $out[] = '';
    array_push($out, ...md_table_head(['', 'extension', 'baseline', 'ext / baseline', 'target']));
    $ratio = ($perCycle['ext'] ?? NAN) / ($perCycle['baseline'] ?? NAN);
    $ok = $ratio <= 0.2;
    $misses += $ok ? 0 : 1;
    $out[] = sprintf('| whole cycle | %s | %s | %.3f | <= 0.2: %s |', number_format($perCycle['ext'] ?? NAN, 0, '.', ','),
        number_format($perCycle['baseline'] ?? NAN, 0, '.', ','), $ratio, $ok ? 'met' : 'MISSED');
    $netExt = ($perCycle['ext'] ?? NAN) - $harness;
    $netBase = ($perCycle['baseline'] ?? NAN) - $harness;
    $out[] = sprintf('| net of the harness | %s | %s | %.3f | |', number_format($netExt, 0, '.', ','),
        number_format($netBase, 0, '.', ','), $netExt / $netBase);
    if (isset($perCycle['floor'])) {
        $out[] = '';
        $out[] = sprintf('For scale: the floor probe (C over the same hiredis, no PHP) costs %s instructions per cycle.',
            number_format($perCycle['floor'], 0, '.', ','));
    }
}
$out[] = '';
$out[] = $misses ? "targets missed: $misses" : 'all targets met';
echo implode("\n", $out), "\n";

if ($png) {
    // One data file per panel: N, then cycles/s of ext, baseline, floor for loopback and 1 ms.
    $gp = [];
    foreach ($modeNames as $mode => $modeName) {
        $data = "$dir/plot-$mode.dat";
        $lines = ["# N ext_lo base_lo floor_lo ext_1ms base_1ms floor_1ms"];
        foreach ([1, 3, 5, 7] as $n) {
            $vals = [$n];
            foreach (['loopback', '1ms'] as $rtt) {
                foreach (['ext', 'baseline', 'floor'] as $impl) {
                    $v = $summary[$rtt][$mode][$impl][$n] ?? NAN;
                    $vals[] = is_nan($v) ? 'NaN' : sprintf('%.1f', $v);
                }
            }
            $lines[] = implode(' ', $vals);
        }
        file_put_contents($data, implode("\n", $lines) . "\n");
    }
    $title = [
        'reused' => 'one RedLock reused (connections kept)',
        'percycle' => 'a new RedLock per cycle (as in a PHP-FPM request)',
    ];
    $gp[] = "set terminal pngcairo size 1400,560 font 'sans,11'";
    $gp[] = "set output '$png'";
    $gp[] = 'set multiplot layout 1,2 title "RedLock lock+unlock cycles per second (log scale; higher is better)"';
    // The same decades on both panels, so that they compare at a glance.
    $all = [];
    array_walk_recursive($summary, function ($v) use (&$all) {
        if (is_float($v) && !is_nan($v) && $v > 0) {
            $all[] = $v;
        }
    });
    $gp[] = 'set logscale y';
    if ($all) {
        $gp[] = sprintf('set yrange [%g:%g]', 10 ** floor(log10(min($all))), 10 ** ceil(log10(max($all))));
    }
    $gp[] = 'set xtics (1,3,5,7)';
    $gp[] = 'set xrange [0.7:7.3]';
    $gp[] = 'set xlabel "Redis servers (N)"';
    $gp[] = 'set ylabel "cycles/s"';
    $gp[] = 'set grid ytics mytics xtics lc rgb "#cccccc" lw 1';
    $gp[] = 'set bmargin 8';
    $gp[] = 'set key at graph 0.5, screen 0.02 center bottom horizontal maxrows 3 spacing 1.1 width 2';
    $gp[] = 'set format y "%.0f"';
    foreach ($modeNames as $mode => $modeName) {
        $data = "$dir/plot-$mode.dat";
        $gp[] = "set title '{$title[$mode]}'";
        $gp[] = "plot '$data' u 1:2 w lp lw 2 pt 7 lc rgb '#1f77b4' t 'extension, loopback', "
            . "'' u 1:3 w lp lw 2 pt 5 lc rgb '#d62728' t 'baseline (PHP), loopback', "
            . "'' u 1:4 w lp lw 1 pt 1 dt 2 lc rgb '#555555' t 'floor (C), loopback', "
            . "'' u 1:5 w lp lw 2 pt 6 dt 4 lc rgb '#1f77b4' t 'extension, 1 ms RTT', "
            . "'' u 1:6 w lp lw 2 pt 4 dt 4 lc rgb '#d62728' t 'baseline (PHP), 1 ms RTT', "
            . "'' u 1:7 w lp lw 1 pt 2 dt 3 lc rgb '#555555' t 'floor (C), 1 ms RTT'";
    }
    $gp[] = 'unset multiplot';
    file_put_contents("$dir/plot.gp", implode("\n", $gp) . "\n");
    passthru('gnuplot ' . escapeshellarg("$dir/plot.gp"), $status);
    if ($status !== 0) {
        fwrite(STDERR, "gnuplot failed\n");
        exit(1);
    }
    fwrite(STDERR, "plot: $png\n");
}
