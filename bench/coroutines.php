<?php
/* Lock+unlock cycles per second from C coroutines of one Swoole worker, each on keys of its own:
 *   php -d extension=swoole.so [-d extension=redlock.so] bench/coroutines.php IMPL SERVERS C SECONDS
 * IMPL: ext (one RedLock shared by the coroutines, as a worker holds it) or baseline (the PHP library,
 * bench/BaselineRedLock.php, over phpredis with SWOOLE_HOOK_ALL: one instance per coroutine, since a
 * phpredis connection cannot be shared by coroutines). SERVERS: "127.0.0.1:P1,127.0.0.1:P2,...".
 * Prints "cycles/s failures cpu idle": this process' CPU (user + system) per cycle in µs, and the share
 * of the machine's CPU time left idle during the run (/proc/stat), in %: where the time goes when the
 * rate stops growing with C. Bounded: SECONDS of work, then every coroutine stops. */
use Swoole\Coroutine;

[$impl, $list, $c, $seconds] = [$argv[1], $argv[2], (int) $argv[3], (float) $argv[4]];
$servers = array_map(fn ($s) => ['127.0.0.1', (int) explode(':', $s)[1], 1.0], explode(',', $list));
if ($impl === 'baseline') {
    require __DIR__ . '/BaselineRedLock.php';
}
$cycles = 0;
$failures = 0;
Coroutine::set(['hook_flags' => SWOOLE_HOOK_ALL & ~(SWOOLE_HOOK_CURL | SWOOLE_HOOK_NATIVE_CURL)]);
$start = 0.0;
$elapsed = 0.0;
$idle = function (): array {
    $f = array_map('intval', array_slice(preg_split('/\s+/', explode("\n", (string) @file_get_contents('/proc/stat'))[0]), 1, 8));
    return count($f) === 8 ? [$f[3] + $f[4], array_sum($f)] : [0, 0];
};
$cpu = function (): float {
    $u = getrusage();
    return $u['ru_utime.tv_sec'] * 1e6 + $u['ru_utime.tv_usec'] + $u['ru_stime.tv_sec'] * 1e6 + $u['ru_stime.tv_usec'];
};
[$idle0, $total0] = $idle();
$cpu0 = $cpu();
Coroutine\run(function () use ($impl, $servers, $c, $seconds, &$cycles, &$failures, &$start, &$elapsed) {
    $shared = $impl === 'ext' ? new RedLock($servers, 200, 3) : null;
    $start = microtime(true);
    $end = $start + $seconds;
    $wg = new Coroutine\WaitGroup();
    for ($i = 0; $i < $c; $i++) {
        $wg->add();
        Coroutine::create(function () use ($impl, $servers, $shared, $i, $end, &$cycles, &$failures, $wg) {
            $r = $shared ?? new BaselineRedLock(array_map(fn ($s) => [$s[0], $s[1], $s[2]], $servers), 200, 3);
            $n = 0;
            while (microtime(true) < $end) {
                $lock = $r->lock('bench:co:' . getmypid() . ":$i:" . ($n++), 10000);
                if ($lock === false) {
                    $failures++;
                    continue;
                }
                $r->unlock($lock);
                $cycles++;
            }
            $wg->done();
        });
    }
    $wg->wait();
    $elapsed = microtime(true) - $start;
});
$cpuUs = $cpu() - $cpu0;
[$idle1, $total1] = $idle();
printf("%.0f %d %.0f %.0f\n", $cycles / $elapsed, $failures, $cpuUs / max(1, $cycles),
    $total1 > $total0 ? 100 * ($idle1 - $idle0) / ($total1 - $total0) : -1);
