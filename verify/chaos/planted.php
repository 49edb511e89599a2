<?php
/* Planted faults against the checker (issue 33): each fault is a record of verify/mutations/list planted in a
 * scratch copy of the tree (built once, then only the mutated object), a short seeded chaos run with
 * histories on the mutant, and verify/chaos/checker.php over those histories, which must report a violation.
 *
 *   php verify/chaos/planted.php [--port-base=8750] [--duration=S] [--seed=N] [--control] [--preset=P] [NAME...]
 *   ends with "planted: N caught, M missed, of K"; exit 1 when one was missed
 *   NAME: a fault below, or defect-N: the defect N of issue 32 ("Where features meet") re-introduced by the
 *   mutation record of its fix (DEFECTS in verify/chaos/defects.php; verify/chaos/replant.sh N runs one);
 *   a defect the checker cannot observe is listed with why and skipped. --control: the same runs on the
 *   unmutated build (each must show 0 violations). --preset=P: every fault under run.php's preset P (e.g.
 *   combined-all, every fault kind at once) instead of its own, with the fault's other options beside it.
 *
 * The scratch tree is .run/planted/tree (REDLOCK_PLANTED_TREE), apart from the mutation chapter's. */

declare(strict_types=1);
$root = dirname(__DIR__, 2);
chdir($root);
$opts = getopt('', ['port-base:', 'duration:', 'seed:', 'control', 'preset:'], $rest);
$presetAll = $opts['preset'] ?? null;
$control = isset($opts['control']);
$names = array_slice($argv, $rest);
$portBase = (int) ($opts['port-base'] ?? 8750);
$duration = (int) ($opts['duration'] ?? 15);
$seed = (int) ($opts['seed'] ?? 33);

/* Each fault: the mutation, and the chaos that lets it show (verify/chaos/run.php options). */
const FAULTS = [
    'quorum-minus-one' => ['why' => 'quorum off by one (N/2 servers)', 'chaos' => []],
    'validity-ignores-elapsed' => ['why' => 'validity not subtracting the time spent acquiring',
        'chaos' => ['--hold-to-validity', '--ttl=100']],
    /* Not in verify/mutations/list (no phpt test names it yet): the fence taken from the first server that said
     * yes instead of the largest counter of the quorum. Counters drift apart whenever a server misses a
     * vote (killed, paused, a split vote), so the fences of successive holders go backwards. */
    'fence-first-vote' => ['why' => 'fence not monotonic (the first yes, not the largest counter)', 'chaos' => ['--fencing'],
        'file' => 'ext/core/rl_attempts.c', 'from' => 'outcomes[i].kind == RL_OUTCOME_YES && outcomes[i].integer > fence',
        'to' => 'outcomes[i].kind == RL_OUTCOME_YES && fence == 0'],
    'fence-writeback-lowers' => ['why' => 'fence not written back to every server we hold', 'chaos' => ['--fencing']],
    /* The script keeps the smallest counter: 0, which is also the script's "taken": the mutant never
     * acquires a fenced lock. A liveness fault, no history can show a safety violation; listed to say so. */
    'fence-not-max' => ['why' => 'fence script keeps the smallest counter (0: never acquires)', 'chaos' => ['--fencing']],
    /* fair waiting (issue 36), judged by the checker's rule 4 in fair-short's calm stretches: the queue served from
     * its tail (a later arrival first: bypass, and the earliest waiters starve), and a dead waiter never skipped
     * (a SIGKILLed waiter stalls the queue once it is the head: every waiter behind it starves) */
    'fair-hand-over-order' => ['why' => 'fair queue served from its tail', 'chaos' => ['--preset=fair-short']],
    'fair-dead-waiter-skipped' => ['why' => 'a dead fair waiter never skipped', 'chaos' => ['--preset=fair-short']],
];

require __DIR__ . '/defects.php';

function read_mutations(string $path): array
{
    $list = [];
    $current = null;
    foreach (file($path, FILE_IGNORE_NEW_LINES) as $line) {
        if (preg_match('/^mutation\s+(\S+)\s*$/', $line, $m)) {
            $current = $m[1];
            $list[$current] = [];
        } elseif ($current !== null && preg_match('/^\s+(file|from|to)\s(.*)$/', $line, $m)) {
            $list[$current][$m[1]] = $m[1] === 'file' ? trim($m[2]) : stripcslashes(trim($m[2]));
        }
    }
    return $list;
}

function sh(string $cmd): int
{
    passthru($cmd, $status);
    return $status;
}

$mutations = read_mutations("$root/verify/mutations/list");
$names = $names ?: array_keys(FAULTS);
$never = 0;
$faults = FAULTS;
foreach ($names as $i => $n) {
    if (preg_match('/^defect-(\d+)$/', $n, $dm)) {
        $d = DEFECTS[(int) $dm[1]] ?? null;
        if ($d === null) {
            fwrite(STDERR, "planted: issue 32 has defects 1-20\n");
            exit(2);
        }
        if (!isset($d['mutation'], $d['chaos'])) {
            echo "planted $n: not run, outside the checker's scope: {$d['out']}\n";
            unset($names[$i]);
            continue;
        }
        $faults[$n] = ['why' => "issue 32 defect {$dm[1]}: {$d['what']}", 'chaos' => $d['chaos']];
        $mutations[$n] = $mutations[$d['mutation']] ?? null;
        if ($mutations[$n] === null) {
            fwrite(STDERR, "planted: $n: no record {$d['mutation']} in verify/mutations/list\n");
            exit(2);
        }
        continue;
    }
    if (isset(FAULTS[$n]['file'])) {
        $mutations[$n] = array_intersect_key(FAULTS[$n], array_flip(['file', 'from', 'to']));
    }
    if (!isset($faults[$n], $mutations[$n])) {
        fwrite(STDERR, "planted: unknown fault $n (known: " . implode(', ', array_keys(FAULTS)) . ")\n");
        exit(2);
    }
}
if ($names === []) {
    echo "planted: nothing to run\n";
    exit(0);
}
$tree = getenv('REDLOCK_PLANTED_TREE') ?: "$root/.run/planted/tree";
$out = dirname($tree);
@mkdir($tree, 0777, true);
/* Copy the tracked and new files whose bytes differ (make then rebuilds only what changed). */
exec('git ls-files -co --exclude-standard', $files);
foreach ($files as $f) {
    if (!is_file("$root/$f") || str_starts_with($f, '.run/')) {
        continue;
    }
    $to = "$tree/$f";
    if (!is_file($to) || md5_file($to) !== md5_file("$root/$f")) {
        @mkdir(dirname($to), 0777, true);
        copy("$root/$f", $to);
    }
}
$make = 'cd ' . escapeshellarg($tree) . ' && nice -n 10 make -j2 >> build.log 2>&1';
if (!is_file("$tree/Makefile")) {
    echo "planted: building the scratch tree ($tree)\n";
    if (sh('cd ' . escapeshellarg($tree) . ' && (phpize && ./configure) > build.log 2>&1') !== 0) {
        fwrite(STDERR, "planted: configure failed: $tree/build.log\n");
        exit(2);
    }
}
$caught = $missed = 0;
$rows = [];
foreach ($names as $name) {
    $m = $mutations[$name];
    $path = "$tree/{$m['file']}";
    $orig = file_get_contents($path);
    if (substr_count($orig, $m['from']) !== 1) {
        fwrite(STDERR, "planted: $name: its text is not found exactly once in {$m['file']}\n");
        exit(2);
    }
    if (!$control) {
        file_put_contents($path, str_replace($m['from'], $m['to'], $orig));
    }
    $built = sh($make) === 0;
    $so = "$out/$name.so";
    if ($built) {
        copy("$tree/modules/redlock.so", $so);
    }
    file_put_contents($path, $orig);
    if (!$built) {
        fwrite(STDERR, "planted: $name does not build: $tree/build.log\n");
        exit(2);
    }
    $hist = "$out/history-$name";
    array_map('unlink', glob("$hist/*") ?: []);
    $chaos = $faults[$name]['chaos'];
    if ($presetAll !== null) { /* --preset: the fault's own options but its preset */
        $chaos = array_values(array_filter($chaos, fn ($o) => !str_starts_with($o, '--preset=') && !str_starts_with($o, '--hold-slices=')));
        $base = ["--preset=$presetAll"];
    } else {
        $base = preg_grep('/^--preset=/', $chaos) ? [] : ['--preset=short', '--runs=delayed']; /* a fault may name its preset */
    }
    $cmd = array_merge([PHP_BINARY, 'verify/chaos/run.php'], $base, ["--duration=$duration",
        "--port-base=$portBase", "--seed=$seed", "--history=$hist", "--extension=$so"], $chaos);
    $t = microtime(true);
    exec(implode(' ', array_map('escapeshellarg', $cmd)) . ' 2>&1', $chaosOut, $chaosStatus);
    exec(escapeshellarg(PHP_BINARY) . ' verify/chaos/checker.php ' . escapeshellarg($hist) . ' 2>&1', $checkOut, $status);
    $verdict = (string) end($checkOut);
    $acq = preg_match('/records, (\d+) acquisitions/', implode("\n", $checkOut), $mm) ? (int) $mm[1] : 0;
    $found = $status === 1;
    if ($control) { /* the unmutated build: a violation here is the checker's or the code's, not the mutation's */
        printf("control %-26s %s: %s; %d acquisitions checked\n", $name, $found ? 'VIOLATION' : 'clean', $verdict, $acq);
        $found ? $missed++ : $caught++;
        $chaosOut = $checkOut = [];
        continue;
    }
    $liveness = !$found && $acq === 0; /* nothing acquired: not a fault of safety, nothing to judge */
    $found ? $caught++ : ($liveness ? $never++ : $missed++);
    printf("planted %-26s %s: %s; %d acquisitions checked, %.0f s; run.php's verdict (with the checker's): %s\n", $name,
        $found ? 'CAUGHT' : ($liveness ? 'NEVER ACQUIRES (liveness)' : 'MISSED'), $verdict, $acq, microtime(true) - $t,
        $chaosStatus === 0 ? 'ok' : 'FAIL');
    foreach (array_slice($checkOut, 1, 2) as $line) {
        echo "    $line\n";
    }
    $chaosOut = $checkOut = [];
}
sh($make); /* the scratch tree back to unmutated */
$total = $caught + $missed + $never;
echo $control ? "control: $caught clean, $missed with violations, of $total\n"
    : "planted: $caught caught, $missed missed, $never never acquired (liveness), of $total\n";
exit($missed === 0 ? 0 : 1);
