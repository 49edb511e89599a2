--TEST--
waitTimeout also wraps lockShared(), lockSemaphore() and lock() with fencing: a waiter whose backoff is longer than its whole wait gets the lock after the holder's release, woken by its announcement (lock() waiting on a shared holder: the last shared unlock() announces; lockShared() waiting on lock(); lockSemaphore() waiting on a full semaphore: each slot's unlock() announces); without a release the wait ends at its deadline
--EXTENSIONS--
redlock
pcntl
posix
--FILE--
<?php
require __DIR__ . '/../inc/watch.inc';
$key = rt_key();
$flag = sys_get_temp_dir() . '/redlock-715-' . getmypid();
// retryDelay 120 s: the first pause after a failed attempt is at least 60 s, three times the
// 20 s waitTimeout. Without the notification every call below would return false.
$waiter = new RedLock(rt_servers(5, 1.0), 120000, 0, ['waitTimeout' => 20000]);

/** Forks a holder that takes what $acquire returns, says so through $flag, and releases it once the
 * waiter listens on $channel (then half a second more: the waiter's attempt after subscribing has
 * failed, so only the release's announcement can wake it). */
function hold_then_release(callable $acquire, string $flag, string $channel): int
{
    @unlink($flag);
    $pid = pcntl_fork();
    if ($pid === 0) {
        $h = new RedLock(rt_servers(5, 1.0), 10, 0, ['waitTimeout' => 5000]); // releases by script, which announces (see 712)
        $locks = $acquire($h);
        file_put_contents($flag, in_array(false, $locks, true) ? 'failed' : 'held');
        $port = rt_ports()[0];
        for ($i = 0; $i < 400 && (rt_redis($port, 'PUBSUB', 'NUMSUB', "redlock:released:$channel")[1] ?? 0) < 1; $i++) {
            usleep(50000);
        }
        usleep(500000);
        foreach ($locks as $l) {
            $h->unlock($l);
        }
        posix_kill(getmypid(), SIGKILL);
    }
    wt_until(fn () => @file_get_contents($flag) !== false && @file_get_contents($flag) !== '', 20, 'the holder');
    echo 'holder: ', file_get_contents($flag), "\n";
    return $pid;
}

// lock() waits for two shared holders to leave: the second unlock() deletes the hash and announces it.
$pid = hold_then_release(fn ($h) => [$h->lockShared($key, 30000), $h->lockShared($key, 30000)], $flag, $key);
$lock = $waiter->lock($key, 5000);
echo 'lock() after shared holders: ', is_array($lock) ? 'got it after the release' : 'no', "\n";
pcntl_waitpid($pid, $status);
$waiter->unlock($lock);

// lockShared() waits for an exclusive holder.
$pid = hold_then_release(fn ($h) => [$h->lock($key, 30000)], $flag, $key);
$lock = $waiter->lockShared($key, 5000);
echo 'lockShared() after lock(): ', is_array($lock) && $lock['shared'] ? 'got it after the release' : 'no', "\n";
pcntl_waitpid($pid, $status);
$waiter->unlock($lock);

// lockSemaphore() waits for a slot of a full semaphore (limit 2).
$pid = hold_then_release(fn ($h) => [$h->lockSemaphore($key, 2, 30000), $h->lockSemaphore($key, 2, 30000)], $flag, "$key:slot:0");
$lock = $waiter->lockSemaphore($key, 2, 5000);
echo 'lockSemaphore() after a slot was freed: ', is_array($lock) && $lock['limit'] === 2 ? 'got it after the release' : 'no', "\n";
pcntl_waitpid($pid, $status);
$waiter->unlock($lock);

// lock() with fencing waits too, and its fence is above the holder's.
$fenced = new RedLock(rt_servers(5, 1.0), 120000, 0, ['waitTimeout' => 20000, 'fencing' => true]);
$pid = hold_then_release(fn ($h) => [$h->lock("$key-f", 30000)], $flag, "$key-f");
$lock = $fenced->lock("$key-f", 5000);
echo 'lock() with fencing after the release: ', is_array($lock) && $lock['fence'] >= 1 ? 'got it after the release' : 'no', "\n";
pcntl_waitpid($pid, $status);
$fenced->unlock($lock);

// Nothing released: each wait ends at its deadline (0.5 s), false.
$holder = new RedLock(rt_servers(5, 1.0), 10, 0);
$held = [$holder->lockSemaphore("$key-full", 1, 30000), $holder->lock("$key-x", 30000)];
$short = new RedLock(rt_servers(5, 1.0), 120000, 0, ['waitTimeout' => 500]);
$t = microtime(true);
var_dump($short->lockSemaphore("$key-full", 1, 5000), $short->lockShared("$key-x", 5000));
echo 'ended by the deadline, not the backoff: ', var_export(microtime(true) - $t < 30, true), "\n";
foreach ($held as $l) {
    $holder->unlock($l);
}
@unlink($flag);
?>
--EXPECT--
holder: held
lock() after shared holders: got it after the release
holder: held
lockShared() after lock(): got it after the release
holder: held
lockSemaphore() after a slot was freed: got it after the release
holder: held
lock() with fencing after the release: got it after the release
bool(false)
bool(false)
ended by the deadline, not the backoff: true
