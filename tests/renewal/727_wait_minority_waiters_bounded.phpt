--TEST--
waitTimeout: several waiters whose attempts can only win a minority (a foreign key on 3 of 5 servers) no longer wake each other in a loop: another waiter's rollback announces a token from fewer servers than a quorum, which wakes a waiter at most once per retryDelay; its attempts stay at the backoff's pace (3 processes made over a thousand attempts each in a 1 s wait before; lock() and lockShared())
--EXTENSIONS--
redlock
pcntl
--FILE--
<?php
require __DIR__ . '/../inc/watch.inc';
$ports = rt_ports();
$servers = rt_servers(5, 1.0);

// A waiter's attempts: its first, the one once subscribed, one after each pause. A pause ends by its
// backoff (at least retryDelay / 2 = 100 ms: at most wait / 100 of them), by a release announced from a
// quorum of servers (none here: every rollback is on servers 3 and 4 only), or by a minority's announcement
// at most once per retryDelay (at most wait / 200 + 1). So at most 2 + wait / 100 + wait / 200 + 1 however
// slow the machine (load only lengthens the pauses and the attempts); the bound is test 709's, 2 x
// (wait / 100 + 2), above that. The loop made over a thousand each.
$wait = (int) (1000 * min(rt_time_scale(), 2.5));
$bound = 2 * (intdiv($wait, 100) + 2);
$waiters = 3;
$dir = sys_get_temp_dir() . '/redlock-727-' . getmypid();
@mkdir($dir);

/** $waiters processes wait for $key at once by $call; each one's attempts, in the order they were forked. */
function waiters_attempts(int $waiters, string $dir, array $servers, int $wait, callable $call): array
{
    @unlink("$dir/go");
    $pids = [];
    for ($w = 0; $w < $waiters; $w++) {
        $pid = pcntl_fork();
        if ($pid === 0) {
            $attempts = 0;
            $r = new RedLock($servers, 200, 3, ['waitTimeout' => $wait,
                'observer' => function (array $c) use (&$attempts) { $attempts = $c['attempts']; }]);
            rt_eventually(fn () => file_exists("$dir/go"), 20.0); // all waiting at the same time
            $result = $call($r);
            file_put_contents("$dir/$w", json_encode([$result, $attempts]));
            exit(0);
        }
        $pids[] = $pid;
    }
    touch("$dir/go");
    $out = [];
    foreach ($pids as $w => $pid) {
        pcntl_waitpid($pid, $status);
        $out[] = json_decode((string) @file_get_contents("$dir/$w"), true);
        @unlink("$dir/$w");
    }
    return $out;
}

function report(string $what, array $each, int $bound): void
{
    foreach ($each as $w => [$result, $attempts]) {
        echo "$what, waiter $w: ", var_export($result, true), ', attempts within ', $bound, ': ',
            var_export($attempts >= 2 && $attempts <= $bound, true), $attempts > $bound || $attempts < 2 ? " ($attempts)" : '', "\n";
    }
}

$key = rt_key('lock');
foreach ([0, 1, 2] as $i) {
    rt_redis($ports[$i], 'SET', $key, 'foreign', 'PX', '60000');
}
report('lock', waiters_attempts($waiters, $dir, $servers, $wait, fn ($r) => $r->lock($key, 5000)), $bound);
report('lockShared', waiters_attempts($waiters, $dir, $servers, $wait, fn ($r) => $r->lockShared($key, 5000)), $bound);
foreach ($ports as $p) {
    rt_redis($p, 'DEL', $key);
}
@unlink("$dir/go");
@rmdir($dir);
var_dump(rt_values_are($key, array_fill(0, 5, null)));
?>
--EXPECTF--
lock, waiter 0: false, attempts within %d: true
lock, waiter 1: false, attempts within %d: true
lock, waiter 2: false, attempts within %d: true
lockShared, waiter 0: false, attempts within %d: true
lockShared, waiter 1: false, attempts within %d: true
lockShared, waiter 2: false, attempts within %d: true
bool(true)
