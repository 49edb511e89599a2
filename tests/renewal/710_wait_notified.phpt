--TEST--
waitTimeout: a waiter whose backoff is longer than its whole wait still gets the lock after the holder's unlock(): the release notification wakes it (single key and a list of keys, lock() and run())
--EXTENSIONS--
redlock
pcntl
posix
--FILE--
<?php
require __DIR__ . '/../inc/watch.inc';
$key = rt_key();
$flag = sys_get_temp_dir() . '/redlock-710-' . getmypid();
// retryDelay 120 s: the first pause after a failed attempt is at least 60 s, three times the
// 20 s waitTimeout. Without the notification every call below would return false (or throw).
$waiter = new RedLock(rt_servers(5, 1.0), 120000, 0, ['waitTimeout' => 20000]);

/** Forks a holder of $resource that says so through $flag, then unlocks after a while. */
function hold_then_unlock(array|string $resource, string $flag): int
{
    @unlink($flag);
    $pid = pcntl_fork();
    if ($pid === 0) {
        $h = new RedLock(rt_servers(5, 1.0), 10, 0, ['waitTimeout' => 5000]); // releases by script, which announces (see 712)
        $l = $h->lock($resource, 30000);
        file_put_contents($flag, $l ? 'held' : 'failed');
        usleep(300000); // the waiter is subscribed and waiting by now, or it catches the release by its attempt after subscribing
        $h->unlock($l);
        posix_kill(getmypid(), SIGKILL);
    }
    wt_until(fn () => @file_get_contents($flag) !== false && @file_get_contents($flag) !== '', 20, 'the holder');
    echo 'holder: ', file_get_contents($flag), "\n";
    return $pid;
}

$pid = hold_then_unlock($key, $flag);
$lock = $waiter->lock($key, 5000);
echo 'lock(): ', is_array($lock) ? 'got it after the release' : 'no', "\n";
pcntl_waitpid($pid, $status);
$waiter->unlock($lock);

$pid = hold_then_unlock(["$key-a", "$key-b"], $flag);
$lock = $waiter->lock(["$key-b", "$key-a"], 5000);
echo 'lock(list): ', is_array($lock) ? 'got it after the release' : 'no', "\n";
pcntl_waitpid($pid, $status);
$waiter->unlock($lock);

$pid = hold_then_unlock($key, $flag);
echo 'run(): ', $waiter->run($key, 5000, fn () => 'got it after the release'), "\n";
pcntl_waitpid($pid, $status);
@unlink($flag);
var_dump(rt_values_are($key, array_fill(0, 5, null)));
?>
--EXPECT--
holder: held
lock(): got it after the release
holder: held
lock(list): got it after the release
holder: held
run(): got it after the release
bool(true)
