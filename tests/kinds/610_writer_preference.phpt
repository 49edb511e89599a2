--TEST--
Writer preference (1/2): a lock() or promote() that waits keeps new readers out (its mark on the servers), so a stream of readers overlapping without a gap in other processes no longer keeps it out: lock() with waitTimeout, lock() with retries, promote(); the readers come back once the writer is done
--EXTENSIONS--
redlock
pcntl
posix
--FILE--
<?php
require __DIR__ . '/../inc/redlock_test.inc';
$servers = rt_servers(5, 1.0);
$scale = rt_time_scale();

/* Readers in other processes, hand over hand: each takes its next read lock before it lets the last
 * one go, so on their own they hold the resource without a gap; until $stop exists (bounded). */
function reader_stream(string $key, string $stop, int $n = 2): array
{
    $pids = [];
    for ($i = 0; $i < $n; $i++) {
        $pid = pcntl_fork();
        if ($pid === 0) {
            $r = new RedLock(rt_servers(5, 1.0), 10, 1);
            $held = null;
            $end = microtime(true) + 8 * rt_time_scale();
            usleep(20000 * $i);
            while (!file_exists($stop) && microtime(true) < $end) {
                $next = $r->lockShared($key, 1000);
                if ($held !== null) {
                    $r->unlock($held);
                }
                $held = $next ?: null;
                usleep(60000);
            }
            if ($held !== null) {
                $r->unlock($held);
            }
            exit(0);
        }
        $pids[] = $pid;
    }
    /* the stream is on: two readers at once on a quorum */
    rt_eventually(fn () => count(array_filter(rt_ports(), fn ($p) => rt_redis($p, 'HLEN', $key) >= 2)) >= 3, 3.0 * rt_time_scale());
    return $pids;
}

function stop_stream(array $pids, string $stop): void
{
    touch($stop);
    foreach ($pids as $pid) {
        pcntl_waitpid($pid, $status);
    }
    unlink($stop);
}

function marked(string $key): int
{
    return count(array_filter(rt_ports(), fn ($p) => rt_redis($p, 'ZCARD', "$key:writers") > 0));
}

$stop = sys_get_temp_dir() . '/rl610-' . getmypid();
@unlink($stop);

echo "a reader stream: lock() with waitTimeout gets in, and the readers come back after it\n";
$key = rt_key('wp');
$pids = reader_stream($key, $stop);
$w = new RedLock($servers, 200, 0, ['waitTimeout' => 2500]);
[$l, $ms] = rt_timed(fn () => $w->lock($key, 2000));
var_dump(is_array($l), $ms < 1500 * $scale);
$probe = new RedLock($servers, 10, 1);
var_dump($probe->lockShared($key, 1000));
var_dump(is_array($l) && $w->unlock($l));
var_dump(rt_eventually(fn () => count(array_filter(rt_ports(), fn ($p) => rt_redis($p, 'TYPE', $key) === 'hash')) >= 3, 2.0 * $scale));
var_dump(marked($key));
stop_stream($pids, $stop);

echo "a reader stream: lock() with retries gets in\n";
$key = rt_key('wp');
$pids = reader_stream($key, $stop);
$w = new RedLock($servers, 100, 25);
[$l, $ms] = rt_timed(fn () => $w->lock($key, 2000));
var_dump(is_array($l), $ms < 1500 * $scale);
if (is_array($l)) {
    $w->unlock($l);
}
stop_stream($pids, $stop);

echo "a reader stream: promote() gets in\n";
$key = rt_key('wp');
$a = new RedLock($servers, 200, 0, ['waitTimeout' => 2500]);
$ra = $a->lockShared($key, 5000);
$pids = reader_stream($key, $stop);
[$p, $ms] = rt_timed(fn () => $a->promote($ra, 2000));
var_dump(is_array($p), $ms < 1500 * $scale, is_array($p) && !isset($p['shared']));
if (is_array($p)) {
    $a->unlock($p);
}
stop_stream($pids, $stop);

?>
--EXPECT--
a reader stream: lock() with waitTimeout gets in, and the readers come back after it
bool(true)
bool(true)
bool(false)
bool(true)
bool(true)
int(0)
a reader stream: lock() with retries gets in
bool(true)
bool(true)
a reader stream: promote() gets in
bool(true)
bool(true)
bool(true)
