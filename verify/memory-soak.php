<?php
/* Memory stays flat over many lock/unlock cycles against one local redis-server it starts itself.
 * Mixes the paths: a won lock + unlock, a lost lock (key held: false, release pipelined), an
 * unlock with a forged token, and a new RedLock object every 10 000 cycles.
 *
 *   php -d extension=modules/redlock.so verify/memory-soak.php [CYCLES=1000000] [PORT=7459]
 *
 * Prints RSS (VmRSS) and the Zend heap after a warm-up and at the end; exits 1 if RSS grew by
 * more than 1 MiB or the Zend heap by more than 64 KiB. */

$cycles = (int) ($argv[1] ?? 1000000);
$port = (int) ($argv[2] ?? 7459);
$dir = sys_get_temp_dir() . "/redlock-soak-$port";
@mkdir($dir, 0700, true);
$null = ['file', '/dev/null', 'w'];
$server = proc_open(['redis-server', '--port', (string) $port, '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no',
    '--dir', $dir], [['file', '/dev/null', 'r'], $null, $null], $pipes);
register_shutdown_function(function () use ($server) {
    proc_terminate($server, SIGKILL);
    proc_close($server);
});
$deadline = microtime(true) + 5;
while (($probe = @stream_socket_client("tcp://127.0.0.1:$port", $e, $s, 0.2)) === false) {
    if (microtime(true) > $deadline) {
        fwrite(STDERR, "redis-server on $port did not start (port busy?)\n");
        exit(2);
    }
    usleep(20000);
}
fclose($probe);

function rss_kb(): int
{
    preg_match('/^VmRSS:\s+(\d+)/m', file_get_contents('/proc/self/status'), $m);
    return (int) $m[1];
}

$servers = [['127.0.0.1', $port, 0.5]];
$make = fn () => new RedLock($servers, 0, 1);
$redlock = $make();
$held = $redlock->lock('soak:held', 3600000);
$counts = ['won' => 0, 'lost' => 0, 'forged_unlock_false' => 0, 'objects' => 1];

$cycle = function (int $i) use (&$redlock, $make, &$counts) {
    if ($i % 10000 === 0) {
        $redlock = $make();
        $counts['objects']++;
    }
    $lock = $redlock->lock('soak:' . ($i % 1000), 10000);
    if ($lock !== false) {
        $counts['won']++;
        $redlock->unlock($lock);
    }
    if ($i % 10 === 0 && $redlock->lock('soak:held', 10000) === false) {
        $counts['lost']++;
    }
    if ($i % 10 === 5 && !$redlock->unlock(['resource' => 'soak:held', 'token' => 'forged'])) {
        $counts['forged_unlock_false']++;
    }
};

$warmup = min(20000, intdiv($cycles, 10));
for ($i = 1; $i <= $warmup; $i++) {
    $cycle($i);
}
gc_collect_cycles();
$rss0 = rss_kb();
$heap0 = memory_get_usage();
$t0 = microtime(true);
printf("after %d warm-up cycles: RSS %d KiB, Zend heap %d bytes\n", $warmup, $rss0, $heap0);
$report = max(1, intdiv($cycles, 10));
for ($i = $warmup + 1; $i <= $cycles; $i++) {
    $cycle($i);
    if ($i % $report === 0) {
        printf("  %8d cycles: RSS %d KiB, Zend heap %d bytes, %.0f s\n", $i, rss_kb(), memory_get_usage(), microtime(true) - $t0);
    }
}
gc_collect_cycles();
$rss1 = rss_kb();
$heap1 = memory_get_usage();
printf("after %d cycles: RSS %d KiB (%+d), Zend heap %d bytes (%+d), %.0f s\n", $cycles, $rss1, $rss1 - $rss0,
    $heap1, $heap1 - $heap0, microtime(true) - $t0);
echo json_encode($counts), "\n";
$ok = $rss1 - $rss0 <= 1024 && $heap1 - $heap0 <= 65536 && $counts['won'] > 0 && $counts['lost'] > 0;
echo $ok ? "MEMORY: flat\n" : "MEMORY: GREW (or nothing ran)\n";
exit($ok ? 0 : 1);
