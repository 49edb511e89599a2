<?php
/**
 * Runs lock + unlock cycles of one implementation and prints one line in the floor probe's
 * format: cycles=.. seconds=.. p50_us=.. p99_us=.. failed=.. cpu_us=.. (user+sys CPU of the timed cycles)
 *
 *   php cycle.php IMPL MODE SERVERS SECONDS [MAX_CYCLES]
 *     IMPL     ext (the redlock extension) | baseline (bench/BaselineRedLock.php) |
 *              null (no I/O: what this harness itself costs, for callgrind)
 *     MODE     reused: one RedLock for every cycle | percycle: a new RedLock per cycle,
 *              as a PHP-FPM request uses it
 *     SERVERS  127.0.0.1:7501,127.0.0.1:7502,...
 *   One cycle = lock() of a fresh key with a 10 s TTL, then unlock(). One warm-up cycle
 *   (not timed) comes first in reused mode. Without MAX_CYCLES: until SECONDS are up.
 */
require __DIR__ . '/BaselineRedLock.php';
require __DIR__ . '/servers.php';

[$impl, $mode, $serverList, $seconds] = array_slice($argv, 1, 4) + [null, null, null, null];
$maxCycles = isset($argv[5]) ? (int) $argv[5] : -1;
if (!in_array($impl, ['ext', 'baseline', 'null'], true) || !in_array($mode, ['reused', 'percycle'], true)
    || !$serverList || !is_numeric($seconds)) {
    fwrite(STDERR, "usage: php cycle.php ext|baseline|null reused|percycle H:P,H:P SECONDS [MAX_CYCLES]\n");
    exit(2);
}
if ($impl === 'ext' && !class_exists('RedLock', false)) {
    fwrite(STDERR, "the redlock extension is not loaded (php -d extension=modules/redlock.so)\n");
    exit(2);
}
$servers = bench_servers($serverList);
if (getenv('BENCH_TLS_CA')) { // bench/tls_row.sh: the same servers' TLS ports, verified against its CA
    $servers = array_map(fn ($s) => ['host' => $s[0], 'port' => $s[1], 'timeout' => $s[2],
        'tls' => ['cafile' => getenv('BENCH_TLS_CA')]], $servers);
}
$class = ['ext' => 'RedLock', 'baseline' => 'BaselineRedLock', 'null' => 'NullRedLock'][$impl];

/** Same calls and result shape as a RedLock, without any I/O. */
class NullRedLock
{
    public function __construct(array $servers, int $retryDelay = 200, int $retryCount = 3)
    {
    }

    public function lock(string $resource, int $ttl): array|false
    {
        return ['validity' => (float) $ttl, 'resource' => $resource, 'token' => 'ffffffffffffffffffffffffffffffff'];
    }

    public function unlock(array $lock): bool
    {
        return true;
    }
}
$prefix = "bench:$impl:" . getmypid();

function cycle(object $redlock, string $key): bool
{
    $lock = $redlock->lock($key, 10000);
    if ($lock === false) {
        return false;
    }
    $redlock->unlock($lock);
    return true;
}

$shared = null;
if ($mode === 'reused') {
    $shared = new $class($servers, 200, 3);
    cycle($shared, "$prefix:warmup");
}

$latencies = [];
$failed = 0;
$cycles = 0;
$usage = getrusage();
$start = hrtime(true);
$deadline = $start + (int) (min((float) $seconds, 600) * 1e9);
while (true) {
    $t0 = hrtime(true);
    if ($t0 >= $deadline || ($maxCycles >= 0 && $cycles >= $maxCycles)) {
        break;
    }
    $cycles++;
    if ($shared !== null) {
        $ok = cycle($shared, "$prefix:$cycles");
    } else {
        $redlock = new $class($servers, 200, 3);
        $ok = cycle($redlock, "$prefix:$cycles");
        unset($redlock); // closes its connections, as the end of a request would
    }
    $latencies[] = hrtime(true) - $t0;
    if (!$ok) {
        $failed++;
    }
}
$elapsed = (hrtime(true) - $start) / 1e9;
$after = getrusage();
$cpuUs = ($after['ru_utime.tv_sec'] - $usage['ru_utime.tv_sec'] + $after['ru_stime.tv_sec'] - $usage['ru_stime.tv_sec']) * 1e6
    + $after['ru_utime.tv_usec'] - $usage['ru_utime.tv_usec'] + $after['ru_stime.tv_usec'] - $usage['ru_stime.tv_usec'];
sort($latencies);
$n = count($latencies);
printf("cycles=%d seconds=%.4f p50_us=%.1f p99_us=%.1f failed=%d cpu_us=%.0f\n", $n, $elapsed,
    $n ? $latencies[intdiv($n - 1, 2)] / 1e3 : 0, $n ? $latencies[(int) (($n - 1) * 0.99)] / 1e3 : 0, $failed, $cpuUs);
