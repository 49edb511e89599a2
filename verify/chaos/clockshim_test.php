<?php
/* The clock shim's test (verify/chaos/clockshim.c): a redis-server started under it, its wall clock moved at
 * run time through the offset file; keys with PX expire early (forward jump) or late (backward), as seen
 * by our monotonic clock (hrtime), and the server's TIME moves with the offset.
 *   php verify/chaos/clockshim_test.php [--port=8800]      (about 3 s; builds .run/clockshim.so with cc) */

declare(strict_types=1);
require __DIR__ . '/resp.php';
$port = (int) (getopt('', ['port:'])['port'] ?? 8800);
$root = dirname(__DIR__, 2);
$dir = "$root/.run/clockshim-$port";
@mkdir($dir, 0777, true);
$shim = "$root/.run/clockshim.so";
exec('cc -O2 -Wall -Wextra -Werror -shared -fPIC -o ' . escapeshellarg($shim) . ' ' . escapeshellarg(__DIR__ . '/clockshim.c') . ' 2>&1', $cc, $st);
if ($st !== 0) {
    fwrite(STDERR, implode("\n", $cc) . "\nclockshim test: FAIL (does not build)\n");
    exit(1);
}
$offsetFile = "$dir/offset";
file_put_contents($offsetFile, "0\n");
$proc = proc_open(['redis-server', '--port', (string) $port, '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no',
    '--dir', $dir, '--hz', '100'], [['file', '/dev/null', 'r'], ['file', "$dir/log", 'w'], ['file', "$dir/log", 'a']],
    $pipes, null, ['LD_PRELOAD' => $shim, 'CLOCKSHIM_FILE' => $offsetFile, 'PATH' => getenv('PATH')]);
register_shutdown_function(function () use ($proc) {
    proc_terminate($proc, SIGKILL);
    proc_close($proc);
});
$c = null;
for ($i = 0; $i < 200 && $c === null; $i++) {
    usleep(20000);
    $c = Resp::connect($port, 0.5);
}
if ($c === null) {
    fwrite(STDERR, "clockshim test: FAIL (redis-server under the shim did not come up: $dir/log)\n");
    exit(1);
}
$failed = 0;
function check(bool $ok, string $what): void
{
    global $failed;
    $failed += $ok ? 0 : 1;
    echo $ok ? 'ok   ' : 'FAIL ', $what, "\n";
}
function server_ms(Resp $c): float
{
    [$s, $us] = $c->call('TIME');
    return (int) $s * 1000 + (int) $us / 1000;
}
/* The offset is read again at most every 10 ms: wait until TIME shows it (bounded). */
function settle(Resp $c, float $want, float $tolerance = 2000): bool
{
    for ($i = 0; $i < 100; $i++) {
        if (abs(server_ms($c) - microtime(true) * 1000 - $want) < $tolerance) {
            return true;
        }
        usleep(10000);
    }
    return false;
}

check(settle($c, 0), 'offset 0: the server\'s TIME agrees with ours');
$c->call('SET', 'k', 'v', 'PX', '30000');
$t0 = hrtime(true);
file_put_contents($offsetFile, "60000\n");
check(settle($c, 60000), 'offset +60000 ms: TIME is 60 s ahead');
$gone = false;
for ($i = 0; $i < 200 && !$gone; $i++) { /* a read expires it at once; the active expiry within ms */
    $gone = $c->call('EXISTS', 'k') === 0;
    if (!$gone) {
        usleep(10000);
    }
}
$after = (hrtime(true) - $t0) / 1e6;
check($gone && $after < 20000, sprintf('a key set with PX 30000 is gone %.0f ms after it was set (by CLOCK_MONOTONIC): early', $after));
file_put_contents($offsetFile, "0\n");
check(settle($c, 0), 'offset back to 0');
$c->call('SET', 'k2', 'v', 'PX', '1000');
$t0 = hrtime(true);
file_put_contents($offsetFile, "-60000\n");
check(settle($c, -60000), 'offset -60000 ms: TIME is 60 s behind');
usleep(1500000);
$lived = (hrtime(true) - $t0) / 1e6;
check($c->call('EXISTS', 'k2') === 1, sprintf('a key set with PX 1000 still exists %.0f ms later: late (a backward jump)', $lived));
$c->close();
echo $failed === 0 ? "clockshim test: ok\n" : "clockshim test: FAIL ($failed)\n";
exit($failed === 0 ? 0 : 1);
