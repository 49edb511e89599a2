--TEST--
waitTimeout: a waiter whose attempts win only a minority (a foreign key on 3 of 5 servers, as members restarted empty leave a holder's key) is not woken by its own rollback's announcement, which carries its attempt's token: it attempts at its backoff's pace, not in a loop (it made about 4,000 attempts in a 1 s wait; lock() of one resource and of several, lockShared(), promote()); another waiter's rollback, the holder's unlock() and an older version's empty message still wake it at once
--EXTENSIONS--
redlock
pcntl
posix
--FILE--
<?php
require __DIR__ . '/../inc/watch.inc';
$ports = rt_ports();
$servers = rt_servers(5, 1.0);

// Every attempt but the first and the one made once subscribed follows a pause of at least retryDelay / 2
// = 100 ms or a release message, and nobody else releases these keys: at most wait / 100 + 2 attempts
// however slow the machine (load only lengthens the pauses and the attempts). Twice that is the bound; the
// loop made about 4,000 here (natively; hundreds under valgrind, whose wait is 2.5 times longer).
$wait = (int) (1000 * min(rt_time_scale(), 2.5));
$bound = 2 * (intdiv($wait, 100) + 2);
$attempts = 0;
$waiter = new RedLock($servers, 200, 3, ['waitTimeout' => $wait,
    'observer' => function (array $call) use (&$attempts) { $attempts = $call['attempts']; }]);

/** $key held by nobody of ours on servers 0-2: a foreign string there, or (promote) a foreign reader. */
function foreign_on_three(array $ports, string $key, bool $reader = false): void
{
    foreach ([0, 1, 2] as $i) {
        if ($reader) {
            rt_redis($ports[$i], 'EVAL', "local t = redis.call('TIME') return redis.call('HSET', KEYS[1], 'foreign', t[1] * 1000 + 60000)", '1', $key);
        } else {
            rt_redis($ports[$i], 'SET', $key, 'foreign', 'PX', '60000');
        }
    }
}

function report(string $what, mixed $result, int $attempts, int $bound): void
{
    echo $what, ': ', var_export($result, true), ', attempts within ', $bound, ': ', var_export($attempts >= 2 && $attempts <= $bound, true),
        $attempts > $bound || $attempts < 2 ? " ($attempts)" : '', "\n";
}

$key = rt_key('lock');
foreign_on_three($ports, $key);
$attempts = 0;
report('lock', $waiter->lock($key, 5000), $attempts, $bound);
$attempts = 0;
report('lock(list)', $waiter->lock(["$key-b", $key], 5000), $attempts, $bound);
$attempts = 0;
report('lockShared', $waiter->lockShared($key, 5000), $attempts, $bound);

$key = rt_key('promote');
$shared = $waiter->lockShared($key, (int) (30000 * rt_time_scale()));
foreign_on_three($ports, $key, true);
$attempts = 0;
report('promote', $waiter->promote($shared, 5000), $attempts, $bound);
foreach ($ports as $p) {
    rt_redis($p, 'DEL', rt_key('lock'), rt_key('promote'), rt_key('promote') . ':writers');
}

// The wake-ups that must stay. retryDelay 120 s: the first pause is at least 60 s, three times the 20 s
// waitTimeout, so a waiter that gets the lock was woken by a message (test 710's proof).
$flag = sys_get_temp_dir() . '/redlock-709-' . getmypid();
$patient = new RedLock($servers, 120000, 0, ['waitTimeout' => 20000,
    'observer' => function (array $call) use (&$attempts) { $attempts = $call['attempts']; }]);

/** Forks what wakes the waiter of $key, run once the waiter listens on every server and made its attempt. */
function wake_later(array $ports, string $key, string $flag, callable $wake): int
{
    @unlink($flag);
    $base = array_map('wt_scripts_run', $ports); // before the waiter's first attempt: one script on each server each
    $pid = pcntl_fork();
    if ($pid === 0) {
        rt_eventually(fn () => min(array_map(fn ($p) => (int) (rt_redis($p, 'PUBSUB', 'NUMSUB', "redlock:released:$key")[1] ?? 0), $ports)) > 0,
            20.0);
        // its attempt once subscribed (it follows the confirmations) landed on every server, its first before it
        // (servers 3 and 4 also run its rollbacks: the foreign servers 0-2 are the ones that tell)
        wt_until_scripts($ports, $base, 2);
        $at = microtime(true);
        $wake();
        file_put_contents($flag, (string) $at);
        posix_kill(getmypid(), SIGKILL);
    }
    return $pid;
}

function woken(string $what, mixed $lock, int $attempts, string $flag): void
{
    $took = microtime(true) - (float) @file_get_contents($flag);
    // loose: the decisive proof is the lock itself, within a wait a third of the first pause
    // 3: its first, the one once subscribed, the one the message woke (a fourth: a wake-up of the
    // subscriptions' own, as a dropped sharded channel gives)
    echo $what, ': ', is_array($lock) ? 'got it' : 'no', ', attempts 3 or 4: ', var_export($attempts >= 3 && $attempts <= 4, true),
        $attempts < 3 || $attempts > 4 ? " ($attempts)" : '', ', within 2 s x load: ', var_export($took < 2.0 * rt_load_scale() * rt_time_scale(), true), "\n";
}

// Another waiter's rollback: the foreign key goes silently (a DEL by hand announces nothing) and a second
// object's attempt of [key, other] wins only servers 3 and 4 (other is foreign on 0-2): its rollback
// there announces with its token, not ours.
$key = rt_key('rival');
$other = rt_key('other');
foreign_on_three($ports, $key);
$pid = wake_later($ports, $key, $flag, function () use ($ports, $key, $other, $servers) {
    foreach ([0, 1, 2] as $i) {
        rt_redis($ports[$i], 'DEL', $key);
    }
    foreign_on_three($ports, $other);
    $rival = new RedLock($servers, 0, 1, ['waitTimeout' => 0]); // releases by script, which announces
    $rival->lock([$key, $other], 5000);
});
$attempts = 0;
$lock = $patient->lock($key, 5000);
pcntl_waitpid($pid, $status);
woken("another waiter's rollback", $lock, $attempts, $flag);
$patient->unlock($lock);

// The holder's unlock().
$key = rt_key('holder');
$holder = new RedLock($servers, 10, 0, ['waitTimeout' => 5000]);
$held = $holder->lock($key, 30000);
$pid = wake_later($ports, $key, $flag, fn () => $holder->unlock($held));
$attempts = 0;
$lock = $patient->lock($key, 5000);
pcntl_waitpid($pid, $status);
woken("the holder's unlock()", $lock, $attempts, $flag);
$patient->unlock($lock);

// An older version's release: its message is empty.
$key = rt_key('older');
foreign_on_three($ports, $key);
$pid = wake_later($ports, $key, $flag, function () use ($ports, $key) {
    foreach ([0, 1, 2] as $i) {
        rt_redis($ports[$i], 'DEL', $key);
    }
    rt_redis($ports[4], 'PUBLISH', "redlock:released:$key", '');
});
$attempts = 0;
$lock = $patient->lock($key, 5000);
pcntl_waitpid($pid, $status);
woken('an empty message', $lock, $attempts, $flag);
$patient->unlock($lock);
@unlink($flag);
foreach ($ports as $p) {
    rt_redis($p, 'DEL', rt_key('other'));
}
var_dump(rt_values_are(rt_key('rival'), array_fill(0, 5, null)), rt_values_are(rt_key('older'), array_fill(0, 5, null)));
?>
--EXPECTF--
lock: false, attempts within %d: true
lock(list): false, attempts within %d: true
lockShared: false, attempts within %d: true
promote: false, attempts within %d: true
another waiter's rollback: got it, attempts 3 or 4: true, within 2 s x load: true
the holder's unlock(): got it, attempts 3 or 4: true, within 2 s x load: true
an empty message: got it, attempts 3 or 4: true, within 2 s x load: true
bool(true)
bool(true)
