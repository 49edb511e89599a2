<?php
/* Exclusion under contention and chaos. Starts 5 lock redis-servers and 1 guard redis-server on
 * 127.0.0.1, runs P workers (verify/chaos/worker.php) that take one shared lock and check a guard inside
 * it, while this loop SIGKILLs / SIGSTOPs lock servers. See docs/evidence/reliability.md.
 *
 *   php verify/chaos/run.php --preset=short     # CI: both runs, < 2 minutes
 *   php verify/chaos/run.php --preset=long      # >= 1M acquisitions in the delayed-restart run
 *   php verify/chaos/run.php --preset=combined-long --history=DIR   # issue 33's faults combined for up to 10^6
 *            acquisitions in 40 min, judged by the streaming checker (docs/evidence/verification.md); --aof --run-dir=/dev/shm/D:
 *            the same with restarts that keep every acknowledged write
 *   php verify/chaos/run.php --preset=combined-all --history=DIR [--swoole=PATH]   # issue 33 item 3: every fault kind
 *            in one run (180 s): the fault proxy, clean Sentinel failovers, ACL revocations, forks inside run(),
 *            autoExtend healing, Swoole coroutine workers, besides combined-short's faults (verify/chaos/combined.php)
 *   php verify/chaos/run.php --preset=fair-short --history=DIR   # issue 36: fair lock() and lockSemaphore() under kills,
 *            pauses, proxy faults, stopped and killed workers, with calm stretches (--calm) for the checker's rule 4
 *   php verify/chaos/run.php --preset=sem-short|shared-short|fence-short   # issue 10's checks, CI: 45 s each
 *   --mode=semaphore --limit=L: P > L workers on lockSemaphore(); never more than L use intervals
 *     overlap. --mode=shared --exclusive-pct=N: lockShared() and lock() (N %) on one resource; an
 *     exclusive interval overlaps no other. --mode=fence: lock() with fencing, servers on
 *     appendonly yes + appendfsync always (--aof), SIGKILLed and restarted after --restart-delay
 *     (may be 0 with --aof): successive holders' fences strictly increase. Checks in
 *     verify/chaos/tally_primitives.php.
 *   options: --workers=8 --duration=S --acquisitions=N --ttl=MS --sleep-us=US --resources=R
 *            --port-base=7441 --runs=delayed,nodelay --restart-delay=MS --retry-delay=MS --retry-count=N
 *            --nodelay-duration=S --nodelay-sleep-us=US --auto-extend --hold-slices=N --wait-timeout=MS
 *            --kill-count=K (lock servers killed at once and restarted together, empty; default 1: K >= 2
 *            breaks the algorithm's assumption, a demonstration) --kill-gap=MS (the next kill comes
 *            MS/2-MS after a restart; default 100-400 ms, and 0-30 ms in the no-delay run)
 *   php verify/chaos/run.php --preset=extend    # CI: autoExtend workers holding ~3 ttls each, delayed run
 *   php verify/chaos/run.php --preset=cluster-short    # ~60 s: --members=cluster, RedLock::fromCluster() over a
 *            3-master cluster (verify/chaos/cluster.php; ports --port-base .. +5, guard +9), with CLUSTER FAILOVERs
 *            and live reshardings instead of kills and pauses (--failover=none|failover|reshard: one kind)
 *   php verify/chaos/run.php --preset=failover-short   # ~60 s: --members=sentinel, 3 Sentinel-managed members
 *            (verify/chaos/failover.php; ports --port-base .. +9) and forced failovers instead of kills and pauses;
 *            --failover=lossy: without the pause that makes them lose nothing (a demonstration, never fails)
 *
 * Exit status: 1 when the delayed-restart run saw any violation: two use intervals of the resource
 * overlapping, the guard's owner key found taken while both locks were still valid, or a lost
 * counter update not explained by a holder that stalled past its validity. The no-delay run is
 * a demonstration and never fails the script. */

declare(strict_types=1);
require __DIR__ . '/resp.php';
require __DIR__ . '/tally.php';
require __DIR__ . '/checker.php';
ini_set('memory_limit', '-1'); /* 1M use intervals are checked in memory */

const PRESETS = [
    /* ~45 s delayed + ~25 s no-delay */
    'short' => ['workers' => 8, 'duration' => 40, 'acquisitions' => 200000, 'ttl' => 300, 'sleep-us' => 0,
        'resources' => 1, 'nodelay-duration' => 30, 'nodelay-sleep-us' => 100000],
    /* 4 resources: with one, most calls are split votes between racing workers (see the README) */
    /* issue 10: one resource, short holds; the primitives' runs have no no-delay demonstration */
    'sem-short' => ['mode' => 'semaphore', 'limit' => 3, 'workers' => 8, 'duration' => 45, 'acquisitions' => 200000,
        'ttl' => 300, 'sleep-us' => 2000, 'resources' => 1, 'runs' => 'delayed'],
    'shared-short' => ['mode' => 'shared', 'exclusive-pct' => 50, 'workers' => 8, 'duration' => 45,
        'acquisitions' => 200000, 'ttl' => 300, 'sleep-us' => 2000, 'resources' => 1, 'runs' => 'delayed'],
    'fence-short' => ['mode' => 'fence', 'aof' => true, 'restart-delay' => 100, 'workers' => 8, 'duration' => 45,
        'acquisitions' => 200000, 'ttl' => 300, 'sleep-us' => 0, 'resources' => 1, 'runs' => 'delayed'],
    'long' => ['workers' => 8, 'duration' => 2700, 'acquisitions' => 1000000, 'ttl' => 200, 'sleep-us' => 0,
        'resources' => 4, 'nodelay-duration' => 60, 'nodelay-sleep-us' => 100000],
    /* autoExtend: each hold is 8 slices of 100 ms with a ttl of 300 ms, renewed in the background;
     * waiters wait for the release notification (waitTimeout) */
    'extend' => ['workers' => 6, 'duration' => 30, 'acquisitions' => 200000, 'ttl' => 300, 'sleep-us' => 100000,
        'resources' => 2, 'nodelay-duration' => 0, 'nodelay-sleep-us' => 0, 'auto-extend' => true, 'hold-slices' => 8,
        'wait-timeout' => 3000, 'runs' => 'delayed'],
    /* issue 33: faults combined, with histories judged by verify/chaos/checker.php: kills and restarts on AOF,
     * server pauses, workers SIGSTOPped past their validity (then writing with their fence), extend(),
     * and a forward clock jump (+60 s, verify/chaos/clockshim.c) on one lock server every few seconds */
    'combined-short' => ['workers' => 8, 'duration' => 40, 'acquisitions' => 200000, 'ttl' => 300, 'sleep-us' => 2000,
        'resources' => 2, 'runs' => 'delayed', 'fencing' => true, 'extend' => true,
        'stop-holders' => true, 'clock-jump' => 60000, 'clock-jump-servers' => 1],
    /* issue 33, item 7's long run: the same faults for up to 10^6 acquisitions (40 min), throughput first on 2 loaded
     * cores: 10 workers over 20 resources, no sleep inside, ttl 1000 ms (lock calls on a loaded machine take
     * tens of ms), restarts without persistence after ttl + 300 ms (appendfsync always cost 3.5x the rate here:
     * 98/s against 352/s), so fences across a restart are outside the model (the checker counts them apart) */
    /* issue 33, item 3: every fault of the issue in the one seeded runner (verify/chaos/combined.php): 3 plain lock
     * servers behind the fault proxy (delays, drops, reorders) with the kills (restarted without persistence after
     * ttl + 300 ms), pauses, +60 s clock jumps and ACL revocations of combined-short, and 2 Sentinel-managed
     * members failed over cleanly; workers of four kinds, one lock array: plain (lock, extend, fenced write,
     * unlock), fork (run() and a child forked inside $fn), renew (autoExtend holds of 4 x 100 ms, which heal
     * members restarted empty), coroutine (4 Swoole coroutines sharing one object; plain when Swoole is not
     * loaded: --swoole=PATH or REDLOCK_SWOOLE_SO), and since issue 36 fair (lock() with 'fair' => true) and fairsem
     * (lockSemaphore() with fair), two of each kind in 12 workers; workers SIGSTOPped past their validity. 180 s. */
    'combined-all' => ['workers' => 12, 'duration' => 180, 'acquisitions' => 1000000, 'ttl' => 500, 'sleep-us' => 2000,
        'resources' => 4, 'runs' => 'delayed', 'fencing' => true, 'extend' => true, 'stop-holders' => true,
        'clock-jump' => 60000, 'clock-jump-servers' => 1, 'plain-servers' => 3, 'sentinel-members' => 2,
        'net-faults' => true, 'net-fault-every' => 200, 'acl-revoke' => true, 'kinds' => 'plain,fork,renew,coroutine,fair,fairsem',
        'server-faults-at-once' => 1],
    /* CI's combined run: the same for 40 s */
    'combined-all-short' => ['workers' => 12, 'duration' => 40, 'acquisitions' => 1000000, 'ttl' => 500, 'sleep-us' => 2000,
        'resources' => 4, 'runs' => 'delayed', 'fencing' => true, 'extend' => true, 'stop-holders' => true,
        'clock-jump' => 60000, 'clock-jump-servers' => 1, 'plain-servers' => 3, 'sentinel-members' => 2,
        'net-faults' => true, 'net-fault-every' => 200, 'acl-revoke' => true, 'kinds' => 'plain,fork,renew,coroutine,fair,fairsem',
        'server-faults-at-once' => 1],
    /* issue 36: fair waiting under chaos, fair workers only: 4 on lock() and 4 on lockSemaphore() (limit 2), one
     * resource each, 'fair' => true with waitTimeout 3000 ms, holds of 200 ms (a releaser is queued again before the
     * next release: the queue's order decides), an extend() per lock() hold; the 5 lock servers behind the fault
     * proxy, killed (restarted on AOF after ttl + 300 ms: a restart keeps the queue, dead waiters too) and paused,
     * workers SIGSTOPped,
     * fair workers SIGKILLed and replaced (--kill-workers: dead waiters); 8 s of faults alternate with 8 s of calm
     * (--calm) in which the checker judges starvation and bypass (a 3 s wait 1 s clear of a fault fits in one) */
    'fair-short' => ['workers' => 8, 'duration' => 40, 'acquisitions' => 1000000, 'ttl' => 500, 'sleep-us' => 200000,
        'resources' => 1, 'runs' => 'delayed', 'extend' => true, 'aof' => true, 'stop-holders' => true, 'net-faults' => true,
        'net-fault-every' => 200, 'kinds' => 'fair,fairsem', 'fair-limit' => 2, 'calm' => 8000, 'kill-workers' => true],
    'combined-long' => ['workers' => 10, 'duration' => 2400, 'acquisitions' => 1000000, 'ttl' => 1000, 'sleep-us' => 0,
        'resources' => 20, 'runs' => 'delayed', 'fencing' => true, 'extend' => true,
        'stop-holders' => true, 'clock-jump' => 60000, 'clock-jump-servers' => 1],
    /* issue 27: 3 Sentinel-managed members (verify/chaos/failover.php), the fault a forced failover of one;
     * autoExtend holds of 4 x 150 ms with a ttl of 1000 ms, renewed across the failovers */
    /* issue 37: RedLock::fromCluster() over 3 masters (verify/chaos/cluster.php), the faults failovers and reshardings;
     * autoExtend holds of 4 x 150 ms with a ttl of 1000 ms, renewed across them */
    'cluster-short' => ['members' => 'cluster', 'workers' => 6, 'duration' => 40, 'acquisitions' => 200000, 'ttl' => 1000,
        'sleep-us' => 150000, 'resources' => 2, 'nodelay-duration' => 0, 'nodelay-sleep-us' => 0, 'auto-extend' => true,
        'hold-slices' => 4, 'wait-timeout' => 3000, 'runs' => 'delayed'],
    'failover-short' => ['members' => 'sentinel', 'workers' => 6, 'duration' => 45, 'acquisitions' => 200000, 'ttl' => 1000,
        'sleep-us' => 150000, 'resources' => 2, 'nodelay-duration' => 0, 'nodelay-sleep-us' => 0, 'auto-extend' => true,
        'hold-slices' => 4, 'wait-timeout' => 3000, 'runs' => 'delayed'],
];

$opts = getopt('', ['preset:', 'workers:', 'duration:', 'acquisitions:', 'ttl:', 'sleep-us:', 'resources:',
    'port-base:', 'runs:', 'retry-delay:', 'retry-count:', 'restart-delay:', 'nodelay-duration:', 'nodelay-sleep-us:', 'extension:',
    'mode:', 'limit:', 'exclusive-pct:', 'aof', 'auto-extend', 'hold-slices:', 'wait-timeout:', 'kill-count:', 'kill-gap:',
    'members:', 'failover:', 'history:', 'fencing', 'extend', 'hold-to-validity', 'fork-in-run', 'seed:',
    'clock-jump:', 'clock-jump-servers:', 'stop-holders', 'plain-servers:', 'sentinel-members:', 'net-faults', 'acl-revoke',
    'kinds:', 'coroutines:', 'swoole:', 'net-fault-every:', 'server-faults-at-once:', 'sentinel-base:', 'proxy-base:',
    'fair-wait-timeout:', 'fair-resources:', 'fair-limit:', 'calm:', 'kill-workers', 'run-dir:']);
foreach (['fencing', 'extend', 'hold-to-validity', 'fork-in-run', 'aof', 'stop-holders', 'net-faults', 'acl-revoke', 'kill-workers'] as $flag) { /* flags: getopt gives false */
    if (isset($opts[$flag])) {
        $opts[$flag] = true;
    }
}
if (isset($opts['auto-extend'])) {
    $opts['auto-extend'] = true; /* a flag: getopt gives false */
}
$preset = PRESETS[$opts['preset'] ?? 'short'] ?? null;
if ($preset === null) {
    fwrite(STDERR, "unknown preset\n");
    exit(2);
}
$cfg = array_merge(['retry-delay' => 10, 'retry-count' => 3, 'port-base' => 7441, 'runs' => 'delayed,nodelay', 'restart-delay' => null,
    'mode' => 'lock', 'limit' => 3, 'exclusive-pct' => 30, 'aof' => false,
    'auto-extend' => false, 'hold-slices' => 1, 'wait-timeout' => null, 'kill-count' => 1, 'kill-gap' => 0,
    'members' => 'plain', 'failover' => 'clean', 'history' => null, 'fencing' => false, 'extend' => false,
    'hold-to-validity' => false, 'fork-in-run' => false, 'seed' => null, 'clock-jump' => 0, 'clock-jump-servers' => 1,
    'stop-holders' => false, 'plain-servers' => 5, 'sentinel-members' => 0, 'net-faults' => false, 'acl-revoke' => false,
    'kinds' => 'plain', 'coroutines' => 4, 'fair-wait-timeout' => 3000, 'fair-resources' => 1, 'fair-limit' => 1, 'calm' => 0, 'kill-workers' => false, 'net-fault-every' => 100, 'server-faults-at-once' => 2, 'swoole' => getenv('REDLOCK_SWOOLE_SO') ?: null], $preset, $opts);
/* --seed: the chaos loop's choices (which server, when) repeat; the workers' timing does not. */
$seed = $cfg['seed'] !== null ? (int) $cfg['seed'] : random_int(1, 999999);
mt_srand($seed);
/* --history=DIR: every worker records its operations (verify/chaos/history.php) to DIR/<run>-w<N>.jsonl and
 * this loop its faults to DIR/<run>-faults.jsonl; verify/chaos/checker.php DIR judges them. */
$historyDir = $cfg['history'] !== null ? (string) $cfg['history'] : null;
if ($historyDir !== null) {
    @mkdir($historyDir, 0777, true);
    $historyDir = realpath($historyDir);
}
$mode = (string) $cfg['mode'];
$aof = $cfg['aof'] !== false;
if (!in_array($mode, ['lock', 'semaphore', 'shared', 'fence'], true)) {
    fwrite(STDERR, "unknown --mode\n");
    exit(2);
}
require __DIR__ . '/tally_primitives.php';
$workers = max(1, (int) $cfg['workers']);
$ttl = (int) $cfg['ttl'];
$restartDelay = $cfg['restart-delay'] !== null ? (int) $cfg['restart-delay'] : $ttl + 300;
if ($restartDelay <= $ttl && !$aof) { /* with appendfsync always the keys survive a restart */
    fwrite(STDERR, "--restart-delay must exceed --ttl for the delayed run\n");
    exit(2);
}
$portBase = (int) $cfg['port-base'];
$lockPorts = range($portBase, $portBase + max(1, min(5, (int) $cfg['plain-servers'])) - 1);
$sentinel = $cfg['members'] === 'sentinel'; /* --members=sentinel: failovers instead of kills and pauses */
if ($sentinel) {
    require __DIR__ . '/failover.php';
}
$clusterMembers = $cfg['members'] === 'cluster'; /* --members=cluster: RedLock::fromCluster(), failovers and reshardings */
if ($clusterMembers) {
    require __DIR__ . '/cluster.php';
    $sentinel = true; /* no kills and pauses of lock servers (the same loop as the Sentinel members') */
}
$guardPort = $portBase + ($sentinel ? 9 : 5);
/* --preset=combined-all (verify/chaos/combined.php): Sentinel-managed members beside the plain ones (their servers
 * from --sentinel-base, default port-base + 200, sentinels + 6..8), the fault proxy in front of the plain ones
 * (listening from --proxy-base, default port-base + 400, control + 9), ACL revocations, worker kinds. */
require __DIR__ . '/combined.php';
$sentinelMembers = $sentinel ? 0 : max(0, min(3, (int) $cfg['sentinel-members']));
if ($sentinelMembers > 0) {
    require_once __DIR__ . '/failover.php';
}
$sentinelBase = (int) ($cfg['sentinel-base'] ?? $portBase + 200); /* servers + 0..3, sentinels + 6..8 */
$proxyBase = (int) ($cfg['proxy-base'] ?? $portBase + 400);       /* listening + 0..4, control + 9 */
$netFaults = !$sentinel && $cfg['net-faults'] !== false;
$aclRevoke = !$sentinel && $cfg['acl-revoke'] !== false;
$kinds = explode(',', (string) $cfg['kinds']);
if (array_diff($kinds, ['plain', 'fork', 'renew', 'coroutine', 'fair', 'fairsem'])) {
    fwrite(STDERR, "--kinds: plain, fork, renew, coroutine, fair, fairsem\n");
    exit(2);
}
/* coroutine workers need Swoole: loaded here, or --swoole=PATH / REDLOCK_SWOOLE_SO; else they run as plain ones */
$swoole = null;
$coroutineNote = null;
if (in_array('coroutine', $kinds, true)) {
    if (extension_loaded('swoole')) {
        $swoole = '';
    } elseif ($cfg['swoole'] !== null && is_file((string) $cfg['swoole'])) {
        $swoole = (string) $cfg['swoole'];
    } else {
        $coroutineNote = 'skipped: Swoole not loaded (--swoole=PATH or REDLOCK_SWOOLE_SO); those workers ran as plain ones';
    }
}
/* --run-dir: where the servers keep their AOF and logs. On a tmpfs, appendfsync always costs nothing and still
 * loses nothing a SIGKILLed server acknowledged (its writes are in the page cache); a power cut is not a fault here. */
$runDir = ($cfg['run-dir'] ?? dirname(__DIR__, 2) . '/.run') . '/chaos-' . $portBase;
@mkdir($runDir, 0700, true);
$clockShim = null;
if ((int) $cfg['clock-jump'] !== 0) {
    $clockShim = "$runDir/clockshim.so";
    exec('cc -O2 -shared -fPIC -o ' . escapeshellarg($clockShim) . ' ' . escapeshellarg(__DIR__ . '/clockshim.c'), $ccOut, $ccStatus);
    if ($ccStatus !== 0) {
        fwrite(STDERR, "--clock-jump: cannot build verify/chaos/clockshim.c\n");
        exit(2);
    }
}
$extension = $cfg['extension'] ?? (dirname(__DIR__, 2) . '/modules/redlock.so');
if (!extension_loaded('redlock')) {
    if (!is_file($extension)) {
        fwrite(STDERR, "build the extension first (modules/redlock.so missing)\n");
        exit(2);
    }
    /* Workers load a private copy: a rebuild during a long run must not pull the .so from under them. */
    copy($extension, "$runDir/redlock.so");
    $extension = "$runDir/redlock.so";
}

/** @var array<int, array{proc: resource|null, pid: int, state: string}> */
$servers = [];
$cbProxy = null; /* verify/chaos/combined.php: the fault proxy */
$cbChild = 0;    /* and the failover loop's process */

/* A run killed with SIGKILL cannot stop its servers: the next run stops them, by the pid it
 * recorded, and only if that pid is still a redis-server on that port. */
function stop_leftover(int $port, string $dir): void
{
    $pidFile = "$dir/server-$port.pid";
    $pid = (int) @file_get_contents($pidFile);
    $cmdline = $pid > 0 ? (string) @file_get_contents("/proc/$pid/cmdline") : '';
    if (str_contains($cmdline, 'redis-') && str_contains($cmdline, (string) $port)) { /* redis-server or redis-sentinel */
        posix_kill($pid, SIGCONT);
        posix_kill($pid, SIGKILL);
        usleep(100000);
    }
    @unlink($pidFile);
}

/** A redis-server on $port; or $command (a redis-sentinel and its config file) given its port. */
function start_server(int $port, string $dir, ?array $command = null): array
{
    global $aof, $clockShim, $lockPorts;
    stop_leftover($port, $dir);
    /* --clock-jump: lock servers run under verify/chaos/clockshim.c, their wall clock offset read from a file */
    $env = $clockShim !== null && $command === null && in_array($port, $lockPorts, true)
        ? array_merge(getenv(), ['LD_PRELOAD' => $clockShim, 'CLOCKSHIM_FILE' => "$dir/clock-offset-$port"]) : null;
    $null = ['file', '/dev/null', 'w'];
    /* --aof: every write fsynced before its reply, so a SIGKILL loses nothing acknowledged. */
    $persistence = $aof ? ['--appendonly', 'yes', '--appendfsync', 'always', '--appenddirname', "aof-$port",
        '--auto-aof-rewrite-min-size', '8mb'] : ['--appendonly', 'no'];
    $proc = proc_open($command !== null ? array_merge($command, ['--port', (string) $port])
        : array_merge(['redis-server', '--port', (string) $port, '--bind', '127.0.0.1', '--save', ''],
        $persistence, ['--dir', $dir, '--logfile', "$dir/redis-$port.log"]), [['file', '/dev/null', 'r'], $null, $null], $pipes,
        null, $env);
    if ($proc === false) {
        throw new RuntimeException("cannot start redis-server on $port");
    }
    /* Loading a long run's AOF took 5.4 s once (a 58 MB file): give it time. Without AOF, 5 s was too short
     * once: at nice 19 on 2 cores at load 15 a restart answered after the deadline (seed 33033, 69 s into
     * --preset=combined-long), the run died and its workers went on against one orphan server. */
    $deadline = microtime(true) + ($aof ? 60 : 30);
    while (microtime(true) < $deadline) {
        $c = Resp::connect($port, 0.2);
        if ($c !== null) {
            try {
                if ($c->call('PING') === 'PONG') {
                    $c->close();
                    $pid = proc_get_status($proc)['pid'];
                    file_put_contents("$dir/server-$port.pid", (string) $pid);
                    return ['proc' => $proc, 'pid' => $pid, 'state' => 'up'];
                }
            } catch (RuntimeException) {
            }
            $c->close();
        }
        usleep(10000);
    }
    posix_kill(proc_get_status($proc)['pid'], SIGKILL); /* no orphan that answers later */
    proc_close($proc);
    throw new RuntimeException("redis-server on $port did not come up (port busy?)");
}

function kill_server(array &$s): void
{
    if ($s['proc'] === null) {
        return;
    }
    posix_kill($s['pid'], SIGCONT);
    posix_kill($s['pid'], SIGKILL);
    proc_close($s['proc']);
    $s['proc'] = null;
    $s['state'] = 'down';
}

function stop_all(): void
{
    global $servers, $cbProxy, $cbChild;
    if (($cbChild ?? 0) > 0) { /* the failover loop (verify/chaos/combined.php) */
        posix_kill($cbChild, SIGKILL);
        pcntl_waitpid($cbChild, $st);
        $cbChild = 0;
    }
    cb_proxy_stop($cbProxy);
    /* a run that dies stops its workers too: they must not go on against stopped servers */
    foreach ($GLOBALS['chaosWorkers'] ?? [] as $p) {
        $st = proc_get_status($p);
        if ($st['running']) {
            posix_kill($st['pid'], SIGCONT);
            posix_kill($st['pid'], SIGKILL);
        }
    }
    foreach ($servers as &$s) {
        kill_server($s);
    }
}

chaos_stop_on_exit('stop_all');

function percentile(array $sorted, float $p): float
{
    if (!$sorted) {
        return -1.0;
    }
    return $sorted[min(count($sorted) - 1, (int) floor($p * count($sorted)))];
}

/** One labelled run. Returns its report. */
function run_once(string $name, string $label, int $restartDelay, float $duration, int $sleepUs, int $acquisitions): array
{
    global $servers, $lockPorts, $guardPort, $runDir, $workers, $ttl, $cfg, $extension, $sentinel, $portBase, $historyDir,
        $clusterMembers, $sentinelMembers, $sentinelBase, $proxyBase, $netFaults, $aclRevoke, $kinds, $swoole, $coroutineNote,
        $cbProxy, $cbChild;
    $killCount = max(1, min(4, (int) $cfg['kill-count']));
    $killGap = max(0, (int) $cfg['kill-gap']);

    foreach ($sentinel ? [$guardPort] : array_merge($lockPorts, [$guardPort]) as $port) {
        array_map('unlink', glob("$runDir/aof-$port/*") ?: []); /* a run starts from empty servers */
        @unlink("$runDir/clock-offset-$port"); /* and true clocks */
        $servers[$port] = start_server($port, $runDir);
    }
    $seeds = null;
    if ($clusterMembers) {
        $seeds = cc_start($portBase, $runDir);
        $lockPorts = [];
    } elseif ($sentinel) {
        $servers += fo_start($portBase, $runDir);
        $lockPorts = array_keys(array_diff_key($servers, [$guardPort => 1]));
    }
    $extraPorts = [];
    $members = null; /* the lock array of the workers, when not the plain servers alone */
    if ($sentinelMembers > 0) {
        $extra = fo_start($sentinelBase, $runDir, $sentinelMembers);
        $extraPorts = array_keys($extra);
        $servers += $extra;
    }
    $listenPorts = $lockPorts;
    if ($netFaults) {
        $listenPorts = array_map(fn ($p) => $proxyBase + $p - $portBase, $lockPorts);
        $cbProxy = cb_proxy_start(dirname(__DIR__, 2), $runDir, $listenPorts, $lockPorts, $proxyBase + 9,
            (float) $cfg['duration'] + 180);
    }
    if ($sentinelMembers > 0 || $netFaults) {
        $members = array_merge(array_map(fn ($p) => ['127.0.0.1', $p, 0.1], $listenPorts),
            $sentinelMembers > 0 ? fo_uris($sentinelBase, 0.2, $sentinelMembers) : []);
    }
    $runId = $name . '-' . bin2hex(random_bytes(3));
    $procs = [];
    $workerKinds = [];
    $workerStart = [];
    $perWorker = (int) ceil($acquisitions / $workers);
    for ($w = 0; $w < $workers; $w++) {
        $kind = $kinds[$w % count($kinds)];
        if ($kind === 'coroutine' && $swoole === null) {
            $kind = 'plain';
        }
        $workerKinds[$w] = $kind;
        $wcfg = ['id' => $w, 'run' => $runId, 'lock_ports' => $lockPorts, 'guard_port' => $guardPort,
            'server_timeout' => 0.1, 'retry_delay' => (int) $cfg['retry-delay'], 'retry_count' => (int) $cfg['retry-count'], 'ttl' => $ttl,
            'sleep_us' => $sleepUs, 'resources' => (int) $cfg['resources'], 'duration' => $duration,
            'max_acquisitions' => $perWorker, 'max_calls' => $perWorker * 50, 'out' => "$runDir/$runId-w$w",
            'mode' => $cfg['mode'], 'limit' => (int) $cfg['limit'], 'exclusive_pct' => (int) $cfg['exclusive-pct'],
            'auto_extend' => (bool) $cfg['auto-extend'], 'hold_slices' => (int) $cfg['hold-slices'],
            'wait_timeout' => $cfg['wait-timeout'] !== null ? (int) $cfg['wait-timeout'] : null,
            'servers' => $sentinel && !$clusterMembers ? fo_uris($portBase, 0.2) : null,
            'from_cluster' => $seeds !== null ? "$seeds?timeout=0.2" : null,
            'history' => $historyDir !== null ? "$historyDir/$runId-w$w.jsonl" : null, 'fencing' => (bool) $cfg['fencing'],
            'extend' => (bool) $cfg['extend'], 'hold_to_validity' => (bool) $cfg['hold-to-validity'],
            'fork_in_run' => (bool) $cfg['fork-in-run'], 'fair_wait_timeout' => (int) $cfg['fair-wait-timeout'],
            'fair_resources' => (int) $cfg['fair-resources'], 'fair_limit' => (int) $cfg['fair-limit']];
        if ($members !== null) {
            $wcfg['servers'] = $members;
        }
        $wcfg['kind'] = $kind;
        if ($kind === 'fork') {
            $wcfg['fork_in_run'] = true;
        } elseif ($kind === 'renew') { /* holds past the ttl, renewed (and healed) by the extension's thread */
            $wcfg['auto_extend'] = true;
            $wcfg['hold_slices'] = 4;
            $wcfg['sleep_us'] = 100000;
        } elseif ($kind === 'fair' || $kind === 'fairsem') { /* 'fair' => true (issue 36): no fencing, no fork */
            $wcfg['fork_in_run'] = false;
        } elseif ($kind === 'coroutine') {
            $wcfg['coroutines'] = max(2, (int) $cfg['coroutines']);
            $wcfg['fork_in_run'] = false; /* no fork inside a Swoole scheduler */
        }
        $cmd = [PHP_BINARY];
        if ($kind === 'coroutine' && $swoole !== '') {
            array_push($cmd, '-d', "extension=$swoole"); /* before redlock: it looks for Swoole when it starts */
        }
        if (!extension_loaded('redlock')) {
            array_push($cmd, '-d', "extension=$extension");
        }
        $workerStart[$w] = [$cmd, $wcfg]; /* --kill-workers starts a replacement from it */
        array_push($cmd, __DIR__ . '/worker.php', json_encode($wcfg));
        /* Not STDERR itself: proc_open() seeks a passed stream to its own offset (0), and with
         * 2>&1 that rewinds our stdout too. Worker errors are copied to stderr afterwards. */
        $procs[$w] = proc_open($cmd, [['file', '/dev/null', 'r'], ['file', '/dev/null', 'w'],
            ['file', "$runDir/$runId-w$w.err", 'w']], $pipes);
        $GLOBALS['chaosWorkers'][$w] = $procs[$w];
    }
    /* --kill-workers: a fair worker (waiting in the queue or holding) SIGKILLed every 1-3 s and replaced by a new
     * process for the rest of the run, its history in a file of its own (the killed one's may end torn) */
    $killWorkers = $cfg['kill-workers'] !== false && $historyDir !== null;
    $fairWorkers = array_keys(array_filter($workerKinds, fn ($k) => $k === 'fair' || $k === 'fairsem'));
    $nextWorkerKill = microtime(true) + mt_rand(1000, 3000) / 1000;
    $generation = 0;

    /* The chaos loop: at most --kill-count lock servers killed (restarted together, empty) and one
     * paused at any time; with the default 1, 3 of 5 stay live. */
    $events = ['kills' => 0, 'restarts' => 0, 'pauses' => 0];
    /* Faults into the history: in the model unless they break the algorithm's assumptions (a restart
     * that forgets keys before their ttl ran out, or K >= 2 of 5 servers lost at once). Such a restart's
     * kill is outside the model too: the keys are lost from the kill on, and the restart is logged only
     * once the empty server answers, which it may already have done to a lock call. */
    $faultLog = $historyDir !== null ? fopen("$historyDir/$runId-faults.jsonl", 'w') : null;
    $inModel = ($restartDelay > $ttl || $GLOBALS['aof']) && $killCount < 2;
    $fault = function (string $kind, int $port, bool $model = true, array $extra = []) use ($faultLog, $runId, $inModel): void {
        if ($faultLog !== null) {
            fwrite($faultLog, json_encode($extra + ['op' => 'fault', 'kind' => $kind, 'port' => $port, 't' => hrtime(true),
                'in_model' => $model && (($kind !== 'restart' && $kind !== 'kill') || $inModel),
                /* a restart without persistence loses the fence counters: fences need AOF (design/primitives.md) */
                'fences_in_model' => $model && (($kind !== 'restart' && $kind !== 'kill') || $GLOBALS['aof']),
                'scope' => "chaos:$runId:"]) . "\n");
        }
    };
    $killed = null;
    $restartAt = 0.0;
    $nextKill = microtime(true) + 0.2;
    $paused = null;
    $resumeAt = 0.0;
    $nextPause = microtime(true) + 0.3;
    $hardStop = microtime(true) + $duration + 60;
    $start = microtime(true);
    if ($clusterMembers) {
        $events = cc_chaos($portBase, $procs, $hardStop, (string) $cfg['failover']); /* --failover=none|failover|reshard: one kind */
    } elseif ($sentinel) {
        $events = fo_chaos($portBase, $procs, $hardStop, (string) $cfg['failover']);
    }
    $clockJump = (int) $cfg['clock-jump'];
    $nextJump = microtime(true) + mt_rand(1000, 3000) / 1000;
    $offsets = array_fill_keys($lockPorts, 0);
    $stopHolders = (bool) $cfg['stop-holders'];
    $stopped = null;
    $nextStop = microtime(true) + mt_rand(200, 800) / 1000;
    $contAt = 0.0;
    $events += ['clock_jumps' => 0, 'holder_stops' => 0];
    /* verify/chaos/combined.php's faults */
    $undo = [];
    $nextNet = microtime(true) + 0.3;
    $aclPort = null;
    $aclRestoreAt = 0.0;
    $aclNopermSeen = [];
    $nextAcl = microtime(true) + mt_rand(500, 1500) / 1000;
    $stopFile = "$runDir/$runId-failovers.stop";
    if ($sentinelMembers > 0) {
        $cbChild = cb_failovers_start($sentinelBase, $sentinelMembers,
            $historyDir !== null ? "$historyDir/$runId-failovers.jsonl" : '/dev/null', "$runDir/$runId-failovers.json", $stopFile,
            $hardStop, "chaos:$runId:", mt_rand());
    }
    if ($netFaults) {
        $events += ['net_faults' => 0];
    }
    if ($aclRevoke) {
        $events += ['acl_revokes' => 0, 'acl_restores' => 0];
    }
    $calm = max(0, (int) $cfg['calm']);
    while (!$sentinel) {
        $now = microtime(true);
        /* --calm=MS: stretches of MS with faults alternate with MS without a new one (those under way end as
         * usual), in which the checker judges fair waiting (its rule 4); failovers of Sentinel members go on */
        $calmNow = $calm > 0 && intdiv((int) (($now - $start) * 1000), $calm) % 2 === 1;
        foreach ($undo as $i => [$due, $fn]) {
            if ($now >= $due) {
                unset($undo[$i]);
                $fn();
            }
        }
        if ($netFaults && $now >= $nextNet && !$calmNow) {
            /* one network fault every 0-200 ms on a proxied server (the fault proxy: delays, drops, reorders) */
            [$kind, $lp, $fn, $after] = cb_net_fault($cbProxy, $listenPorts);
            $fault("net-$kind", $lockPorts[array_search($lp, $listenPorts, true)]);
            $events['net_faults']++;
            $events["net_$kind"] = ($events["net_$kind"] ?? 0) + 1;
            if ($fn !== null) {
                $undo[] = [$now + $after, $fn];
            }
            $nextNet = $now + mt_rand(1, 2 * max(1, (int) $cfg['net-fault-every'])) / 1000;
        }
        /* --server-faults-at-once=1 (combined-all: with 3 plain servers, a failover in progress on a Sentinel member
         * and the proxy's faults, two plain servers out would leave no quorum most of the time): one plain server
         * killed, paused or refusing scripts at a time; 2 (the default): a kill and a pause may overlap */
        $oneAtOnce = (int) $cfg['server-faults-at-once'] < 2;
        if ($aclRevoke && $aclPort === null && $now >= $nextAcl && !$calmNow && !($oneAtOnce && ($killed !== null || $paused !== null))) {
            /* scripts revoked on one plain server (neither killed nor paused) by ACL SETUSER, restored later */
            $candidates = array_values(array_diff($lockPorts, $killed ?? [], [$paused]));
            $port = $candidates[mt_rand(0, count($candidates) - 1)];
            if (cb_acl($port, false) !== null) {
                $aclPort = $port;
                $fault('acl-revoke', $port);
                $events['acl_revokes']++;
                $aclRestoreAt = $now + mt_rand(500, 2000) / 1000;
            }
            $nextAcl = $now + mt_rand(1000, 3000) / 1000;
        }
        if ($aclPort !== null && $now >= $aclRestoreAt && $aclPort !== $paused && !in_array($aclPort, $killed ?? [], true)) {
            $noperm = cb_acl($aclPort, true); /* the NOPERM replies it sent since it started */
            $fault('acl-restore', $aclPort, true, ['noperm_replies' => $noperm]);
            $events['acl_noperm_replies'] = ($events['acl_noperm_replies'] ?? 0) + max(0, $noperm - ($aclNopermSeen[$aclPort] ?? 0));
            $aclNopermSeen[$aclPort] = $noperm ?? 0;
            $events['acl_restores']++;
            $aclPort = null;
            $nextAcl = $now + mt_rand(1000, 3000) / 1000;
        }
        if ($clockJump !== 0 && $now >= $nextJump && !$calmNow) {
            /* A forward jump of the wall clock on K lock servers (outside Redlock's model: its keys
             * expire early), cumulative: a server restarted later keeps its clock ahead. */
            $ports = $lockPorts;
            shuffle($ports);
            foreach (array_slice($ports, 0, max(1, (int) $cfg['clock-jump-servers'])) as $port) {
                $offsets[$port] += $clockJump;
                file_put_contents("$runDir/clock-offset-$port", $offsets[$port] . "\n");
                $fault('clock-jump', $port, false);
                $events['clock_jumps']++;
            }
            $nextJump = $now + mt_rand(2000, 4000) / 1000;
        }
        if ($killWorkers && $fairWorkers && $now >= $nextWorkerKill && !$calmNow) {
            $w = $fairWorkers[mt_rand(0, count($fairWorkers) - 1)];
            $st = proc_get_status($procs[$w]);
            $left = $duration - ($now - $start);
            if ($st['running'] && $st['pid'] !== $stopped && $left > 1) {
                posix_kill($st['pid'], SIGKILL);
                proc_close($procs[$w]);
                $fault('worker-kill', $w);
                $events['worker_kills'] = ($events['worker_kills'] ?? 0) + 1;
                [$cmd, $wcfg] = $workerStart[$w];
                $generation++;
                $wcfg['duration'] = $left;
                $wcfg['history'] = "$historyDir/$runId-w$w.$generation.jsonl";
                $procs[$w] = proc_open(array_merge($cmd, [__DIR__ . '/worker.php', json_encode($wcfg)]),
                    [['file', '/dev/null', 'r'], ['file', '/dev/null', 'w'], ['file', "$runDir/$runId-w$w.err", 'w']], $pipes);
                $GLOBALS['chaosWorkers'][$w] = $procs[$w];
            }
            $nextWorkerKill = $now + mt_rand(1000, 3000) / 1000;
        }
        if ($stopHolders && $stopped === null && $now >= $nextStop && !$calmNow) {
            /* A holder (any worker, wherever it is) SIGSTOPped past its validity: its next write must
             * be fenced off if another holder wrote meanwhile. In the model: a process pause. */
            $w = array_rand($procs);
            $stopped = proc_get_status($procs[$w])['pid'];
            posix_kill($stopped, SIGSTOP);
            $fault('holder-stop', $w);
            $events['holder_stops']++;
            $contAt = $now + ($ttl + mt_rand(50, 300)) / 1000;
        }
        if ($stopped !== null && $now >= $contAt) {
            posix_kill($stopped, SIGCONT);
            $stopped = null;
            $nextStop = $now + mt_rand(300, 1200) / 1000;
        }
        $now = microtime(true);
        if (!chaos_any_running($procs) || $now > $hardStop) {
            break;
        }
        if ($killed === null && $now >= $nextKill && !$calmNow && !($oneAtOnce && ($paused !== null || ($aclPort ?? null) !== null))) {
            $candidates = array_values(array_diff($lockPorts, [$paused]));
            shuffle($candidates);
            $killed = array_slice($candidates, 0, $killCount);
            foreach ($killed as $port) {
                kill_server($servers[$port]);
                $fault('kill', $port);
                $events['kills']++;
                $aclNopermSeen[$port] = 0; /* a new process counts from 0 */
                if ($port === $aclPort) { /* its restart allows scripts again */
                    $fault('acl-restore', $port);
                    $events['acl_restores']++;
                    $aclPort = null;
                }
            }
            $restartAt = $now + $restartDelay / 1000;
        }
        if ($killed !== null && $now >= $restartAt) {
            foreach ($killed as $port) {
                $servers[$port] = start_server($port, $runDir);
                $fault('restart', $port);
                $events['restarts']++;
            }
            $killed = null;
            $nextKill = microtime(true) + ($killGap > 0 ? mt_rand(intdiv($killGap, 2), $killGap)
                : ($restartDelay > 0 ? mt_rand(100, 400) : mt_rand(0, 30))) / 1000;
        }
        if ($paused === null && $now >= $nextPause && !$calmNow && !($oneAtOnce && ($killed !== null || ($aclPort ?? null) !== null))) {
            $candidates = array_values(array_diff($lockPorts, $killed ?? []));
            $paused = $candidates[array_rand($candidates)];
            posix_kill($servers[$paused]['pid'], SIGSTOP);
            $fault('pause', $paused);
            $events['pauses']++;
            $resumeAt = $now + mt_rand(50, 400) / 1000;
        }
        if ($paused !== null && $now >= $resumeAt) {
            posix_kill($servers[$paused]['pid'], SIGCONT);
            $fault('resume', $paused);
            $paused = null;
            $nextPause = microtime(true) + mt_rand(100, 400) / 1000;
        }
        usleep(5000);
    }
    if ($paused !== null) {
        posix_kill($servers[$paused]['pid'], SIGCONT);
    }
    if (($stopped ?? null) !== null) {
        posix_kill($stopped, SIGCONT);
    }
    $GLOBALS['chaosWorkers'] = []; /* reaped below: stop_all must not touch them */
    chaos_reap($procs);
    $elapsed = microtime(true) - $start;
    foreach ($undo as [, $fn]) {
        $fn();
    }
    if ($aclPort !== null) {
        cb_acl($aclPort, true);
        $fault('acl-restore', $aclPort);
        $events['acl_restores']++;
    }
    if ($cbChild > 0) { /* the failover loop: stopped between failovers, or killed after 3 s in one (the workers are done:
                          * a failover cut short harms nobody; the count is of the failovers it finished) */
        touch($stopFile);
        $until = microtime(true) + 3;
        while (pcntl_waitpid($cbChild, $st, WNOHANG) === 0 && microtime(true) < $until) {
            usleep(50000);
        }
        if (microtime(true) >= $until) {
            posix_kill($cbChild, SIGKILL);
            pcntl_waitpid($cbChild, $st);
        }
        $cbChild = 0;
        @unlink($stopFile);
        $events += json_decode((string) @file_get_contents("$runDir/$runId-failovers.json"), true) ?: ['failovers' => 0];
        if (is_file("$runDir/$runId-failovers.json.err")) {
            $events['failover_loop_error'] = file_get_contents("$runDir/$runId-failovers.json.err");
        }
    }
    if ($netFaults) {
        $events['proxy'] = cb_ctl($cbProxy, 'STATS');
        cb_proxy_stop($cbProxy);
    }
    if ($faultLog !== null) {
        fclose($faultLog);
    }

    [$tally, $lost, $primitives] = chaos_checked_tally($runDir, $runId, $workers, $cfg, $guardPort);
    $sum = $tally['sum'];
    $latencies = $tally['latencies'];
    foreach ($lockPorts as $port) {
        kill_server($servers[$port]);
    }
    kill_server($servers[$guardPort]);
    foreach ($extraPorts as $port) {
        kill_server($servers[$port]);
    }
    if ($clusterMembers) {
        cc_stop($runDir);
    }
    /* --history: the run's histories judged by verify/chaos/checker.php. With clock jumps (outside the model)
     * the checker alone decides: it sets apart what follows an out-of-model fault; the tally above cannot. So
     * with holders SIGSTOPped: one late counter write can lose several updates, which the tally takes for a
     * violation; the fenced resource is what a stalled holder must not corrupt, and the checker judges that. */
    $checked = null;
    if ($historyDir !== null) {
        $checked = checker_check(checker_stream(glob("$historyDir/$runId-*.jsonl") ?: []));
        unset($checked['stats']['records']);
    }
    $tallyBad = chaos_violated($tally, $lost) || ($primitives !== null && $primitives['violations'] > 0);
    $violated = ($checked !== null && !$checked['ok']) || ($tallyBad && ((int) $cfg['clock-jump'] === 0 && !$cfg['stop-holders'] || $checked === null))
        || ($checked !== null && $checked['stats']['acquisitions'] === 0);

    return $sum + [
        'run' => $label, 'workers' => $workers, 'ttl_ms' => $ttl, 'restart_delay_ms' => $restartDelay,
        'sleep_in_section_us' => $sleepUs, 'seconds' => round($elapsed, 1), 'kill_count' => $killCount, 'kill_gap_ms' => $killGap, 'auto_extend' => (bool) $cfg['auto-extend'],
        'hold_slices' => (int) $cfg['hold-slices'], 'wait_timeout_ms' => $cfg['wait-timeout'],
        'interval_overlaps' => $tally['interval_overlaps'], 'interval_example' => $tally['interval_example'],
        'lost_counter_updates' => $lost, 'lost_not_explained_by_late_writes' => max(0, $lost - $sum['late_writes']),
        'workers_without_report' => $tally['missing'],
        'violated' => $violated, 'checker' => $checked,
        'mode' => $cfg['mode'] . ($cfg['mode'] === 'semaphore' ? " limit {$cfg['limit']}" : '')
            . ($cfg['mode'] === 'shared' ? " {$cfg['exclusive-pct']}% exclusive" : '') . ($GLOBALS['aof'] ? ', appendfsync always' : ''),
        'primitives_check' => $primitives,
        'acquire_p50_ms' => round(percentile($latencies, 0.50), 3),
        'acquire_p99_ms' => round(percentile($latencies, 0.99), 3),
        'acquire_max_ms' => round($latencies ? end($latencies) : -1.0, 3),
        'acquisitions_per_s' => round($sum['acquisitions'] / max($elapsed, 0.001)),
        'members' => $clusterMembers ? 'fromCluster(), 3 masters, failovers and reshardings'
            : ($sentinel ? "3 Sentinel-managed, failovers {$cfg['failover']}" : count($lockPorts) . ' plain'
            . ($netFaults ? ' behind the fault proxy' : '') . ($sentinelMembers > 0 ? " and $sentinelMembers Sentinel-managed, clean failovers" : '')),
        'worker_kinds' => array_count_values($workerKinds) + ($coroutineNote !== null ? ['coroutine' => $coroutineNote] : []),
        'fair' => $checked['fair'] ?? null, 'calm_ms' => (int) $cfg['calm'],
        'chaos' => $events, 'examples' => array_slice($tally['examples'], 0, 3), 'seed' => $GLOBALS['seed'],
        'history' => $GLOBALS['historyDir'],
    ];
}

$failed = false;
foreach (explode(',', $cfg['runs']) as $run) {
    if ($run === 'delayed') {
        $report = run_once('delayed', 'delayed-restart', $restartDelay, (float) $cfg['duration'], (int) $cfg['sleep-us'],
            (int) $cfg['acquisitions']);
        $lossy = $sentinel && !$clusterMembers && $cfg['failover'] === 'lossy'; /* a demonstration (verify/chaos/failover.php) */
        $bad = $report['violated'] && !$lossy;
        $failed = $failed || $bad;
        $report['verdict'] = $bad ? 'FAIL' : ($lossy ? 'demonstration' : 'ok');
    } elseif ($run === 'nodelay') {
        $report = run_once('nodelay', 'no-delay-restart (demonstration, never fails)', 0, (float) $cfg['nodelay-duration'],
            (int) $cfg['nodelay-sleep-us'], (int) $cfg['acquisitions']);
        $report['verdict'] = 'demonstration';
    } else {
        fwrite(STDERR, "unknown run $run\n");
        exit(2);
    }
    echo json_encode($report, JSON_PRETTY_PRINT | JSON_PARTIAL_OUTPUT_ON_ERROR), "\n";
}
echo $failed ? "CHAOS: FAIL (violation in a delayed-restart run)\n" : "CHAOS: ok\n";
exit($failed ? 1 : 0);
