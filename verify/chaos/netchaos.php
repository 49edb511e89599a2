<?php
/* Exclusion under network faults. Like verify/chaos/run.php (same workers, same checks), but every lock
 * server sits behind verify/chaos/faultproxy.c and a seeded schedule injects per-connection faults:
 * stalls of every open connection to K servers (stall_open: client->server bytes delayed by
 * 1.5-8 x the server timeout for a short window; new connections fast: the schedule that finds
 * defect 1 of 4ed8729), delays in either direction, client->server bytes held until a later
 * connection's bytes went through (reordering across connections), resets (now or after N reply
 * bytes), blackholes, refused connects; plus SIGKILL with a delayed restart (ttl + 300 ms) and
 * SIGSTOP pauses. None of these may let two workers hold one resource at once.
 *
 *   php verify/chaos/netchaos.php --preset=net-short   # CI: 60 s, exit 1 on any violation
 *   php verify/chaos/netchaos.php --preset=net-long    # 100,000 acquisitions (about 20-25 min here)
 *   --extension=PATH   the redlock.so to test (default modules/redlock.so; copied first)
 *   options: --seed=S --workers=P --duration=S --acquisitions=N --ttl=MS --resources=R
 *            --servers=N (1..5, default 5) --server-timeout=SECONDS --retry-delay=MS --retry-count=N
 *            --hold-ms=MIN-MAX (time inside the lock, drawn per acquisition: the window in which
 *            a lost key lets a second worker in; --sleep-us=US: a fixed time, the older option)
 *            --fault-every=MS (mean gap between the other faults) --kill-share=P --delay-max=MS
 *            --stall-every=MS (mean gap between stall_open events, 0 = none)
 *            --stall-window=MIN-MAX (ms the stall lasts) --stall-factor=LO-HI (D / server timeout)
 *            --no-kill (network faults only) --port-base=7461
 *            --mode=semaphore|shared|fence --limit=L --exclusive-pct=N: issue 10's checks under the same
 *            faults (verify/chaos/worker_primitives.php, verify/chaos/tally_primitives.php; see verify/chaos/run.php)
 * Ports: lock servers port-base..+4, guard +5, proxy listen ports +6..+10, proxy control +11
 * (with --servers=N < 5 the first N of each).
 * The seed fixes the schedule (which fault, where, when, how long); which connections a fault
 * hits still depends on the workers' timing, so a seed's counts vary from run to run. */

declare(strict_types=1);
require __DIR__ . '/resp.php';
require __DIR__ . '/tally.php';
require __DIR__ . '/checker.php';
ini_set('memory_limit', '-1');

const NET_PRESETS = [
    'net-short' => ['workers' => 8, 'duration' => 60, 'acquisitions' => 200000, 'ttl' => 1000, 'resources' => 1,
        'servers' => 5, 'server-timeout' => 0.05, 'retry-delay' => 30, 'retry-count' => 10, 'hold-ms' => '10-100',
        'fault-every' => 100, 'stall-every' => 150, 'stall-window' => '20-80', 'stall-factor' => '1.5-8'],
    'net-long' => ['workers' => 8, 'duration' => 3600, 'acquisitions' => 100000, 'ttl' => 1000, 'resources' => 4,
        'servers' => 5, 'server-timeout' => 0.05, 'retry-delay' => 30, 'retry-count' => 10, 'hold-ms' => '0-20',
        'fault-every' => 100, 'stall-every' => 150, 'stall-window' => '20-80', 'stall-factor' => '1.5-8'],
];

$opts = getopt('', ['preset:', 'seed:', 'workers:', 'duration:', 'acquisitions:', 'ttl:', 'resources:', 'server-timeout:',
    'retry-delay:', 'retry-count:', 'sleep-us:', 'hold-ms:', 'delay-max:', 'kill-share:', 'port-base:', 'fault-every:',
    'stall-every:', 'stall-window:', 'stall-factor:', 'servers:', 'no-kill', 'extension:', 'mode:', 'limit:', 'exclusive-pct:',
    'history:', 'fencing', 'hold-to-validity']);
foreach (['fencing', 'hold-to-validity'] as $flag) { /* flags: getopt gives false */
    if (isset($opts[$flag])) {
        $opts[$flag] = true;
    }
}
$preset = NET_PRESETS[$opts['preset'] ?? 'net-short'] ?? null;
if ($preset === null) {
    fwrite(STDERR, "unknown preset (net-short, net-long)\n");
    exit(2);
}
/* Defaults, then the preset, then the command line. */
$cfg = array_merge(['seed' => random_int(1, 999999), 'server-timeout' => 0.05, 'retry-delay' => 10, 'retry-count' => 3,
    'hold-ms' => '0-0', 'delay-max' => 400, 'kill-share' => 10, 'port-base' => 7461, 'fault-every' => 40,
    'stall-every' => 0, 'stall-window' => '20-80', 'stall-factor' => '1.5-8', 'servers' => 5,
    'mode' => 'lock', 'limit' => 3, 'exclusive-pct' => 30, 'history' => null, 'fencing' => false,
    'hold-to-validity' => false], $preset, $opts);
/* --history=DIR: the workers' histories (verify/chaos/history.php), judged by verify/chaos/checker.php at the end; the
 * proxy's faults are all inside the model (delays, drops, reorders, resets) and so are the delayed
 * restarts, so they are not recorded as faults. */
$historyDir = null;
if ($cfg['history'] !== null) {
    @mkdir((string) $cfg['history'], 0777, true);
    $historyDir = realpath((string) $cfg['history']);
}
require __DIR__ . '/tally_primitives.php';
if (isset($cfg['sleep-us'])) {   /* the older option: a fixed time inside the lock */
    $cfg['hold-ms'] = sprintf('%F-%F', $cfg['sleep-us'] / 1000, $cfg['sleep-us'] / 1000);
}
$seed = (int) $cfg['seed'];
mt_srand($seed);
echo "netchaos: seed=$seed (rerun with --seed=$seed)\n";
$workers = max(1, (int) $cfg['workers']);
$ttl = (int) $cfg['ttl'];
$base = (int) $cfg['port-base'];
$nServers = (int) $cfg['servers'];
if ($nServers < 1 || $nServers > 5) {
    fwrite(STDERR, "--servers must be 1..5\n");
    exit(2);
}
[$holdMin, $holdMax] = array_map('floatval', explode('-', (string) $cfg['hold-ms'] . '-'));
$holdMax = max($holdMin, $holdMax);
[$stallLo, $stallHi] = array_map('floatval', explode('-', (string) $cfg['stall-factor'] . '-'));
$stallHi = max($stallLo, $stallHi);
$timeoutMs = (float) $cfg['server-timeout'] * 1000;
$lockPorts = range($base, $base + $nServers - 1);
$guardPort = $base + 5;
$listenPorts = range($base + 6, $base + 5 + $nServers);
$ctlPort = $base + 11;
$root = dirname(__DIR__, 2);
$runDir = "$root/.run/netchaos-$base";
@mkdir($runDir, 0700, true);
$extension = $cfg['extension'] ?? "$root/modules/redlock.so";
if (!extension_loaded('redlock')) {
    if (!is_file($extension)) {
        fwrite(STDERR, "build the extension first (modules/redlock.so missing)\n");
        exit(2);
    }
    copy($extension, "$runDir/redlock.so");   /* a rebuild during the run must not swap it */
    $extension = "$runDir/redlock.so";
}

/* The proxy, built when missing or older than its source. */
$proxyBin = "$root/.run/bin/faultproxy";
@mkdir(dirname($proxyBin), 0755, true);
$proxySources = ["$root/verify/chaos/faultproxy.c", "$root/verify/chaos/faultproxy_ctl.c"];
if (!is_file($proxyBin) || filemtime($proxyBin) < max(array_map('filemtime', array_merge($proxySources, ["$root/verify/chaos/faultproxy.h"])))) {
    exec('cc -O2 -Wall -o ' . escapeshellarg("$proxyBin.$$") . ' ' . implode(' ', array_map('escapeshellarg', $proxySources)) . ' 2>&1', $out, $st);
    if ($st !== 0) {
        fwrite(STDERR, "cannot build faultproxy:\n" . implode("\n", $out) . "\n");
        exit(2);
    }
    rename("$proxyBin.$$", $proxyBin);
}

$servers = [];
$proxy = null;

function start_server(int $port, string $dir): array
{
    $pidFile = "$dir/server-$port.pid";
    $old = (int) @file_get_contents($pidFile);
    if ($old > 1 && str_contains((string) @file_get_contents("/proc/$old/cmdline"), (string) $port)) {
        posix_kill($old, SIGCONT);
        posix_kill($old, SIGKILL);   /* left over from a run killed with SIGKILL */
        usleep(100000);
    }
    $null = ['file', '/dev/null', 'w'];
    $proc = proc_open(['redis-server', '--port', (string) $port, '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no',
        '--dir', $dir, '--logfile', "$dir/redis-$port.log"], [['file', '/dev/null', 'r'], $null, $null], $pipes);
    $deadline = microtime(true) + 5;
    while ($proc !== false && microtime(true) < $deadline) {
        $c = Resp::connect($port, 0.2);
        if ($c !== null) {
            try {
                $pong = $c->call('PING');
            } catch (RuntimeException) {
                $pong = null;
            }
            $c->close();
            if ($pong === 'PONG') {
                $pid = proc_get_status($proc)['pid'];
                file_put_contents($pidFile, (string) $pid);
                return ['proc' => $proc, 'pid' => $pid];
            }
        }
        usleep(10000);
    }
    throw new RuntimeException("redis-server on $port did not come up (port busy?)");
}

function kill_server(array &$s): void
{
    if ($s['proc'] !== null) {
        posix_kill($s['pid'], SIGCONT);
        posix_kill($s['pid'], SIGKILL);
        proc_close($s['proc']);
        $s['proc'] = null;
    }
}

function stop_all(): void
{
    global $servers, $proxy;
    foreach ($servers as &$s) {
        kill_server($s);
    }
    if ($proxy !== null) {
        proc_terminate($proxy['proc']);
        proc_close($proxy['proc']);
        $proxy = null;
    }
}

chaos_stop_on_exit('stop_all');

function ctl(string $command): string
{
    global $proxy;
    fwrite($proxy['link'], "$command\n");
    $reply = rtrim((string) fgets($proxy['link']), "\n");
    if (!str_starts_with($reply, 'OK') && !str_contains($reply, 'is closed')) {
        throw new RuntimeException("faultproxy: $command -> $reply");
    }
    return $reply;
}

foreach (array_merge($lockPorts, [$guardPort]) as $port) {
    $servers[$port] = start_server($port, $runDir);
}
$maps = array_map(fn ($l, $u) => "$l:$u", $listenPorts, $lockPorts);
$proc = proc_open(array_merge([$proxyBin, '-c', (string) $ctlPort, '-t', (string) ((int) $cfg['duration'] + 120)], $maps),
    [['file', '/dev/null', 'r'], ['pipe', 'w'], ['file', "$runDir/proxy.err", 'w']], $pipes);
if (trim((string) fgets($pipes[1])) !== 'ready') {
    fwrite(STDERR, "faultproxy did not start: " . @file_get_contents("$runDir/proxy.err"));
    exit(2);
}
$proxy = ['proc' => $proc, 'link' => stream_socket_client("tcp://127.0.0.1:$ctlPort", $errno, $errstr, 2.0)];
stream_set_timeout($proxy['link'], 5);

$runId = 'net-' . bin2hex(random_bytes(3));
$duration = (float) $cfg['duration'];
$perWorker = (int) ceil((int) $cfg['acquisitions'] / $workers);
$procs = [];
for ($w = 0; $w < $workers; $w++) {
    $wcfg = ['id' => $w, 'run' => $runId, 'lock_ports' => $listenPorts, 'guard_port' => $guardPort,
        'server_timeout' => (float) $cfg['server-timeout'], 'retry_delay' => (int) $cfg['retry-delay'],
        'retry_count' => (int) $cfg['retry-count'], 'ttl' => $ttl, 'sleep_us' => (int) round($holdMin * 1000),
        'sleep_us_max' => (int) round($holdMax * 1000), 'resources' => (int) $cfg['resources'],
        'duration' => $duration, 'max_acquisitions' => $perWorker, 'max_calls' => $perWorker * 200, 'out' => "$runDir/$runId-w$w",
        'mode' => $cfg['mode'], 'limit' => (int) $cfg['limit'], 'exclusive_pct' => (int) $cfg['exclusive-pct'],
        'history' => $historyDir !== null ? "$historyDir/$runId-w$w.jsonl" : null, 'fencing' => (bool) $cfg['fencing'],
        'hold_to_validity' => (bool) $cfg['hold-to-validity']];
    $cmd = [PHP_BINARY];
    if (!extension_loaded('redlock')) {
        array_push($cmd, '-d', "extension=$extension");
    }
    array_push($cmd, __DIR__ . '/worker.php', json_encode($wcfg));
    $procs[$w] = proc_open($cmd, [['file', '/dev/null', 'r'], ['file', '/dev/null', 'w'], ['file', "$runDir/$runId-w$w.err", 'w']], $pipes2);
}

/* The schedule. Undo actions (restore a connection, end a refusal, restart, resume) are queued
 * with their due time; at most one server killed and one paused at a time. */
$events = array_fill_keys(['stall_open', 'reorder', 'delay_next', 'delay_open', 'hold_next', 'rst_open', 'rst_reply', 'blackhole',
    'refuse', 'kill', 'pause'], 0);
$undo = [];
$killed = $paused = null;
$start = microtime(true);
$startNs = hrtime(true);
$nextFault = $start + 0.2;
$hardStop = $start + $duration + 60;
$noKill = isset($cfg['no-kill']);
$every = max(1, (int) $cfg['fault-every']);
$delayMax = max(60, (int) $cfg['delay-max']);
$killShare = max(0, min(10, (int) $cfg['kill-share']));   /* % of faults that kill or pause a server */
$stallEvery = max(0, (int) $cfg['stall-every']);   /* mean gap between stall_open events, 0 = none */
[$stallWinLo, $stallWinHi] = array_map('floatval', explode('-', (string) $cfg['stall-window'] . '-'));
$stallWinHi = max($stallWinLo, $stallWinHi);
$nextStall = $start + 0.3;
while (true) {
    $now = microtime(true);
    if (!chaos_any_running($procs) || $now > $hardStop) {
        break;
    }
    foreach ($undo as $i => [$due, $fn]) {
        if ($now >= $due) {
            unset($undo[$i]);
            $fn();
        }
    }
    if ($stallEvery > 0 && $now >= $nextStall) {
        /* stall_open: for a moment (the window), the path of every open connection to K servers
         * stalls client->server: bytes sent then arrive D = 1.5-8 x the server timeout late,
         * while connections opened from then on are fast (a new flow). A call that sent on a
         * stalled connection gives up on it (overdue) and its next attempt connects afresh; that
         * attempt can win there long before the old connection's SET, and the release pipelined
         * behind it, arrive. Those must not touch what the later attempt won (defect 1 of
         * 4ed8729). The window is short so that mostly calls in flight are hit, not the holder's
         * release (a stalled release keeps the key until it arrives, which hides the defect). */
        $nextStall = $now + mt_rand(1, 2 * $stallEvery) / 1000;
        $d = (int) round($timeoutMs * mt_rand((int) ($stallLo * 100), (int) ($stallHi * 100)) / 100);
        $window = mt_rand((int) $stallWinLo, (int) $stallWinHi);
        $k = mt_rand(1, $nServers);
        foreach ((array) array_rand($listenPorts, $k) as $j) {
            ctl(sprintf('SET %d open delay_c2s=%d', $listenPorts[$j], $d));
            $undo[] = [$now + $window / 1000, fn () => ctl("SET {$listenPorts[$j]} open delay_c2s=0")];
        }
        $events['stall_open']++;
    }
    if ($now >= $nextFault) {
        $nextFault = $now + mt_rand(1, 2 * $every) / 1000;
        $i = mt_rand(0, $nServers - 1);
        $lp = $listenPorts[$i];
        $pick = mt_rand(1, 100);
        $open = array_slice(explode(' ', ctl("CONNS $lp")), 1);
        $conn = $open ? $open[mt_rand(0, count($open) - 1)] : null;
        if ($pick <= 25 && $conn !== null) {
            /* Reordering across connections: an open connection is reset, so the worker's next
             * call connects anew, and that connection's bytes are held until a later connection's
             * bytes went through (the worker's next attempt, after the first timed out). */
            ctl(sprintf('SET %d next hold=%d', $lp, mt_rand(60, $delayMax)));
            ctl("SET $lp $conn mode=rst");
            $events['reorder']++;
        } elseif ($pick <= 40) {    /* a new connection's bytes arrive late */
            ctl(sprintf('SET %d next delay_c2s=%d delay_s2c=%d', $lp, mt_rand(60, $delayMax), mt_rand(0, 1) ? mt_rand(0, 200) : 0));
            $events['delay_next']++;
        } elseif ($pick <= 55 && $conn !== null) {
            ctl(sprintf('SET %d %s delay_c2s=%d delay_s2c=%d', $lp, $conn, mt_rand(0, 400), mt_rand(0, 300)));
            $undo[] = [$now + mt_rand(100, 600) / 1000, fn () => ctl("SET $lp $conn delay_c2s=0 delay_s2c=0")];
            $events['delay_open']++;
        } elseif ($pick <= 65) {
            ctl(sprintf('SET %d next hold=%d', $lp, mt_rand(60, 400)));
            $events['hold_next']++;
        } elseif ($pick <= 72 && $conn !== null) {
            ctl("SET $lp $conn mode=rst");
            $events['rst_open']++;
        } elseif ($pick <= 78) {
            ctl(sprintf('SET %d next rst_s2c=%d', $lp, mt_rand(1, 30)));
            $events['rst_reply']++;
        } elseif ($pick <= 85) {
            ctl(sprintf('SET %d %s mode=blackhole', $lp, $conn ?? 'next'));
            $events['blackhole']++;
        } elseif ($pick <= 100 - $killShare) {
            ctl("SET $lp new mode=refuse");
            $undo[] = [$now + mt_rand(50, 300) / 1000, fn () => ctl("SET $lp new mode=normal")];
            $events['refuse']++;
        } elseif ($pick <= 100 - $killShare / 2 && !$noKill && $killed === null && $lockPorts[$i] !== $paused) {
            $killed = $lockPorts[$i];
            kill_server($servers[$killed]);
            $undo[] = [$now + ($ttl + 300) / 1000, function () use (&$killed, &$servers, $runDir) {
                $servers[$killed] = start_server($killed, $runDir);
                $killed = null;
            }];
            $events['kill']++;
        } elseif (!$noKill && $paused === null && $lockPorts[$i] !== $killed) {
            $paused = $lockPorts[$i];
            posix_kill($servers[$paused]['pid'], SIGSTOP);
            $undo[] = [$now + mt_rand(50, 400) / 1000, function () use (&$paused, &$servers) {
                posix_kill($servers[$paused]['pid'], SIGCONT);
                $paused = null;
            }];
            $events['pause']++;
        }
    }
    usleep(2000);
}
foreach ($undo as [, $fn]) {
    $fn();
}
chaos_reap($procs);
$elapsed = microtime(true) - $start;
$proxyStats = ctl('STATS');

[$tally, $lost, $primitives] = chaos_checked_tally($runDir, $runId, $workers, $cfg, $guardPort);
$sum = $tally['sum'];
$firstViolation = $tally['first_violation_ns'];
stop_all();

$report = $sum + ['run' => 'network faults', 'seed' => $seed, 'workers' => $workers, 'ttl_ms' => $ttl,
    'server_timeout_s' => (float) $cfg['server-timeout'], 'retry_delay_ms' => (int) $cfg['retry-delay'],
    'seconds' => round($elapsed, 1),
    'first_violation_after_s' => $firstViolation === null ? null : round(($firstViolation - $startNs) / 1e9, 2),
    'servers' => $nServers, 'hold_ms' => "$holdMin-$holdMax", 'interval_overlaps' => $tally['interval_overlaps'], 'interval_example' => $tally['interval_example'],
    'lost_counter_updates' => $lost, 'lost_not_explained_by_late_writes' => max(0, $lost - $sum['late_writes']),
    'workers_without_report' => $tally['missing'], 'faults' => $events, 'proxy' => $proxyStats,
    'examples' => array_slice($tally['examples'], 0, 3), 'mode' => $cfg['mode'], 'primitives_check' => $primitives];
$bad = chaos_violated($tally, $lost) || ($primitives !== null && $primitives['violations'] > 0);
if ($historyDir !== null) {
    $checked = checker_check(checker_stream(glob("$historyDir/$runId-*.jsonl") ?: []));
    unset($checked['stats']['records']);
    $report['checker'] = $checked;
    $bad = $bad || !$checked['ok'] || $checked['stats']['acquisitions'] === 0;
}
$report['verdict'] = $bad ? 'FAIL' : 'ok';
echo json_encode($report, JSON_PRETTY_PRINT | JSON_PARTIAL_OUTPUT_ON_ERROR), "\n";
echo $bad ? "NETCHAOS: FAIL (seed $seed)\n" : "NETCHAOS: ok (seed $seed)\n";
exit($bad ? 1 : 0);
