--TEST--
waitTimeout: two or three waiters whose attempts each win only a minority (a foreign key on 3 of 5 servers, as members restarted empty leave a holder's key) no longer wake each other in a loop: another's rollback frees at most the 2 other servers, too few for a quorum, so it wakes a waiter at most once in a row (each made about 3,400 attempts in a 1 s wait after test 709's fix, which covered a lone waiter only); a holder's unlock() that frees enough for a quorum still wakes a waiter at once right after such a wake-up
--EXTENSIONS--
redlock
pcntl
posix
--FILE--
<?php
require __DIR__ . '/../inc/watch.inc';
$ports = rt_ports();
$servers = rt_servers(5, 1.0);

// Each pause lasts at least retryDelay / 2 = 100 ms, or is ended by a message; here every message is another
// waiter's rollback on servers 3 and 4, never enough for a quorum, so no two pauses in a row end by one: at
// most 2 x (wait / 100 + 1) pauses, 2 attempts more. Three times wait / 100 + 2 is the bound (load only
// lengthens the pauses); the loop made thousands.
$wait = (int) (1000 * min(rt_time_scale(), 2.5));
$bound = 3 * (intdiv($wait, 100) + 2);

foreach ([2, 3] as $n) {
    $key = rt_key("minority-$n");
    foreach ([0, 1, 2] as $i) {
        rt_redis($ports[$i], 'SET', $key, 'foreign', 'PX', '60000');
    }
    $start = microtime(true) + 0.3 * rt_load_scale();
    $pids = [];
    $out = sys_get_temp_dir() . '/redlock-708-' . getmypid() . "-$n-";
    for ($c = 0; $c < $n; $c++) {
        $pid = pcntl_fork();
        if ($pid === 0) {
            $attempts = 0;
            $waiter = new RedLock($servers, 200, 3, ['waitTimeout' => $wait,
                'observer' => function (array $call) use (&$attempts) { $attempts = $call['attempts']; }]);
            if ($start > microtime(true)) {
                time_sleep_until($start);
            }
            $lock = $waiter->lock($key, 5000);
            file_put_contents($out . $c, json_encode([$lock, $attempts]));
            posix_kill(getmypid(), SIGKILL);
        }
        $pids[] = $pid;
    }
    foreach ($pids as $pid) {
        pcntl_waitpid($pid, $status);
    }
    for ($c = 0; $c < $n; $c++) {
        [$lock, $attempts] = json_decode((string) @file_get_contents($out . $c), true) ?? [null, -1];
        @unlink($out . $c);
        echo "$n waiters, waiter $c: ", var_export($lock, true), ', attempts within ', $bound, ': ',
            var_export($attempts >= 2 && $attempts <= $bound, true), $attempts > $bound || $attempts < 2 ? " ($attempts)" : '', "\n";
    }
    foreach ($ports as $p) {
        rt_redis($p, 'DEL', $key);
    }
}

// A waiter woken by a rival's rollback too few to win, and right after it the holder's unlock(): that one
// frees a server the waiter lacked, a quorum with the two it wins, and wakes it at once. The holder holds the
// key on servers 0-2 only (its own object over those three); retryDelay 120 s: the first pause is at least
// 60 s, three times the 20 s waitTimeout, so a waiter that gets the lock was woken by a message.
$key = rt_key('holder-after-rival');
$holder = new RedLock(array_slice($servers, 0, 3), 10, 0);
$held = $holder->lock($key, 60000);
$flag = sys_get_temp_dir() . '/redlock-708-' . getmypid();
@unlink($flag);
$pid = pcntl_fork();
if ($pid === 0) {
    rt_eventually(fn () => min(array_map(fn ($p) => (int) (rt_redis($p, 'PUBSUB', 'NUMSUB', "redlock:released:$key")[1] ?? 0), $ports)) > 0,
        20.0);
    usleep((int) (300000 * rt_load_scale())); // its attempt once subscribed made
    $rival = new RedLock($servers, 0, 1, ['waitTimeout' => 0]);
    var_dump($rival->lock($key, 5000)); // wins servers 3 and 4 only, rolls back there: the waiter wakes once
    usleep((int) (300000 * rt_load_scale())); // its attempt after that wake-up made, asleep again
    $at = microtime(true);
    $holder->unlock($held);
    file_put_contents($flag, (string) $at);
    posix_kill(getmypid(), SIGKILL);
}
$attempts = 0;
$patient = new RedLock($servers, 120000, 0, ['waitTimeout' => 20000,
    'observer' => function (array $call) use (&$attempts) { $attempts = $call['attempts']; }]);
$lock = $patient->lock($key, 5000);
pcntl_waitpid($pid, $status);
$took = microtime(true) - (float) @file_get_contents($flag);
// 4: its first, the one once subscribed, the one the rival's rollback woke, the one the unlock woke
echo "the holder's unlock() after a rival's rollback: ", is_array($lock) ? 'got it' : 'no', ', attempts 4: ',
    var_export($attempts === 4, true), $attempts !== 4 ? " ($attempts)" : '', ', within 2 s x load: ',
    var_export($took < 2.0 * rt_load_scale() * rt_time_scale(), true), "\n";
if (is_array($lock)) {
    $patient->unlock($lock);
}
@unlink($flag);
var_dump(rt_values_are($key, array_fill(0, 5, null)));
?>
--EXPECTF--
2 waiters, waiter 0: false, attempts within %d: true
2 waiters, waiter 1: false, attempts within %d: true
3 waiters, waiter 0: false, attempts within %d: true
3 waiters, waiter 1: false, attempts within %d: true
3 waiters, waiter 2: false, attempts within %d: true
bool(false)
the holder's unlock() after a rival's rollback: got it, attempts 4: true, within 2 s x load: true
bool(true)
