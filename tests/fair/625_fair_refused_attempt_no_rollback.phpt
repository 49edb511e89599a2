--TEST--
fair waiting: a waiter's attempt refused by every server (the lock held, or another waiter at the head) sends no rollback: the fair lock script sets the key only where it answers 1, so there is nothing to undo (each queued waiter attempts every 125-250 ms: a rollback per refusal doubled its scripts on every server); the releases still run, the waiter gets the lock
--EXTENSIONS--
redlock
pcntl
posix
--FILE--
<?php
require __DIR__ . '/../inc/fair.inc';
$key = rt_key();
$port = rt_ports()[0];
$log = sys_get_temp_dir() . '/redlock-625-' . getmypid();
@unlink($log);
// one server: every refusal is answered before the attempt ends (with more, the attempt may end at
// its lost quorum before the last answer, and that server still gets the rollback)
$make = fn () => new RedLock(rt_servers(1, 1.0), 200, 3, ['fair' => true, 'waitTimeout' => (int) (8000 * rt_time_scale())]);
$monitor = stream_socket_client("tcp://127.0.0.1:$port", $errno, $error, 2.0);
fwrite($monitor, "MONITOR\r\n");
echo 'monitor: ', trim((string) fgets($monitor)), "\n";

$holder = $make();
$lock = $holder->lock($key, (int) (10000 * rt_time_scale()));
$pid = pcntl_fork();
if ($pid === 0) {
    $r = $make();
    $got = $r->lock($key, 10000);
    file_put_contents($log, 'waiter:' . ($got ? 'got' : 'none'), FILE_APPEND | LOCK_EX);
    if ($got) {
        $r->unlock($got);
    }
    posix_kill(getmypid(), SIGKILL);
}
fr_until_waiters($holder, $key, 1);
usleep(300000); // a heartbeat attempt or two (every 125-250 ms), refused too
var_dump($holder->unlock($lock));
pcntl_waitpid($pid, $status);
echo 'log: ', @file_get_contents($log), "\n";

// everything the server ran on our key, up to a marker sent after the waiter ended
$marker = 'redlock-625-end-' . bin2hex(random_bytes(4));
rt_redis($port, 'ECHO', $marker);
$attempts = $unlocks = 0;
$until = microtime(true) + 5.0 * rt_time_scale();
stream_set_timeout($monitor, 1);
while (microtime(true) < $until && ($line = fgets($monitor)) !== false) {
    if (str_contains($line, $marker)) {
        break;
    }
    if (!str_contains($line, "\"1\" \"$key\" \"")) {
        continue;
    }
    if (str_contains($line, '"EVAL" "local me = ARGV[3]')) {
        $attempts++; // RL_SCRIPT_FAIR_LOCK
    } elseif (str_contains($line, "\"EVAL\" \"if redis.pcall('GET', KEYS[1]) ~= ARGV[1]")) {
        $unlocks++; // RL_SCRIPT_FAIR_UNLOCK: an unlock() or a rollback
    }
}
// the holder's won attempt, the waiter's refused ones (its first, its first queued one, heartbeats), its won one
echo 'the waiter was refused at least twice: ', var_export($attempts >= 4, true), "\n";
echo "unlock scripts (the two unlock() calls, no rollback): $unlocks\n";
echo 'after: queue ', rt_redis($port, 'ZCARD', "$key:fair"), "\n";
@unlink($log);
?>
--EXPECT--
monitor: +OK
bool(true)
log: waiter:got
the waiter was refused at least twice: true
unlock scripts (the two unlock() calls, no rollback): 2
after: queue 0
