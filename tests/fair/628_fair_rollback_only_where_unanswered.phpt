--TEST--
fair waiting: a refused attempt that ended on its lost quorum before a slow server answered sends its rollback to that server only (it may yet set the key there); the servers that refused get none, the waiter still gets the lock
--EXTENSIONS--
redlock
pcntl
posix
--FILE--
<?php
/* Server A sits behind the fault proxy, every request to it 20 ms late (scaled): B and C refuse a
 * waiter's attempt first, the quorum is lost, the attempt ends with A unanswered. */
require __DIR__ . '/../inc/faultproxy.inc';
require __DIR__ . '/../inc/fair.inc';
fp_alarm(30);
$s = fp_time_scale();
[$b, $c, $a] = array_map(fn ($port) => ['port' => $port], array_slice(rt_ports(), 0, 3)); // the suite's servers
$proxy = fp_start([$a['port']]);
$delay = (int) (20 * $s);
fp_set($proxy, $a['port'], 'all', "delay_c2s=$delay");
$servers = [['127.0.0.1', $proxy['listen'][$a['port']], 2.0 * $s], ['127.0.0.1', $b['port'], 2.0 * $s],
    ['127.0.0.1', $c['port'], 2.0 * $s]];
$make = fn () => new RedLock($servers, 200, 3, ['fair' => true, 'waitTimeout' => (int) (8000 * $s)]);
$key = rt_key();
$log = sys_get_temp_dir() . '/redlock-628-' . getmypid();
@unlink($log);
$monitors = [];
foreach (['a' => $a['port'], 'b' => $b['port']] as $name => $port) {
    $monitors[$name] = stream_socket_client("tcp://127.0.0.1:$port", $errno, $error, 2.0);
    fwrite($monitors[$name], "MONITOR\r\n");
    echo "monitor $name: ", trim((string) fgets($monitors[$name])), "\n";
}

$holder = $make();
$lock = $holder->lock($key, (int) (10000 * $s));
$pid = pcntl_fork();
if ($pid === 0) {
    $r = $make();
    $got = $r->lock($key, 10000);
    file_put_contents($log, 'waiter:' . ($got ? 'got ' . $got['token'] : 'none'), FILE_APPEND | LOCK_EX);
    if ($got) {
        $r->unlock($got);
    }
    posix_kill(getmypid(), SIGKILL);
}
fr_until_waiters($holder, $key, 1); // refused twice by then: its first attempt, its first queued one
var_dump($holder->unlock($lock));
pcntl_waitpid($pid, $status);
[$said, $waiterToken] = explode(' ', (string) @file_get_contents($log), 2) + [1 => ''];
echo 'log: ', $said, "\n";

/* What a server ran on our key, up to a marker sent after everything: [fair lock scripts, unlock scripts]. A's
 * requests come through the proxy, late: the marker (sent to A directly) goes only once A has run the last request
 * of each client, the holder's unlock() and the waiter's (each client's requests reach A in order, on its one
 * connection), so that every earlier one is counted; a fixed sleep of the delay + 100 ms stood for that. */
$count = function ($monitor, int $port, array $lastUnlocks = []) use ($key): array {
    $attempts = $unlocks = 0;
    $until = microtime(true) + 5.0 * rt_time_scale() * rt_load_scale();
    $marker = null;
    stream_set_timeout($monitor, 1);
    while (microtime(true) < $until) {
        if ($marker === null && $lastUnlocks === []) {
            $marker = 'redlock-628-end-' . bin2hex(random_bytes(4));
            rf_cmd($port, 'ECHO', $marker);
        }
        if (($line = fgets($monitor)) === false) {
            continue; // a read timeout: still within the bound
        }
        if ($marker !== null && str_contains($line, $marker)) {
            break;
        }
        if (str_contains($line, "\"1\" \"$key\" \"") && str_contains($line, '"EVAL" "local me = ARGV[3]')) {
            $attempts++;
        } elseif (str_contains($line, "\"1\" \"$key\" \"") && str_contains($line, "\"EVAL\" \"if redis.pcall('GET', KEYS[1]) ~= ARGV[1]")) {
            $unlocks++;
            $lastUnlocks = array_filter($lastUnlocks, fn ($token) => !str_contains($line, "\"1\" \"$key\" \"$token\""));
        }
    }
    return [$attempts, $unlocks];
};
[$attemptsB, $unlocksB] = $count($monitors['b'], $b['port']);
[$attemptsA, $unlocksA] = $count($monitors['a'], $a['port'], array_filter([$lock['token'], trim($waiterToken)]));
echo 'the waiter was refused at least twice: ', var_export($attemptsB >= 4 && $attemptsA === $attemptsB, true), "\n";
echo "B (answered every refusal): unlock scripts $unlocksB (the two unlock() calls, no rollback)\n";
echo 'A (late): the two unlock() calls and a rollback per refused attempt: ', var_export($unlocksA === 2 + ($attemptsA - 2), true), "\n";
echo 'after: queues ', json_encode(array_map(fn ($p) => rf_cmd($p, 'ZCARD', "$key:fair"), [$a['port'], $b['port'], $c['port']])),
    ', keys ', json_encode(array_map(fn ($p) => rf_cmd($p, 'EXISTS', $key), [$a['port'], $b['port'], $c['port']])), "\n";
@unlink($log);
?>
--EXPECT--
monitor a: +OK
monitor b: +OK
bool(true)
log: waiter:got
the waiter was refused at least twice: true
B (answered every refusal): unlock scripts 2 (the two unlock() calls, no rollback)
A (late): the two unlock() calls and a rollback per refused attempt: true
after: queues [0,0,0], keys [0,0,0]
