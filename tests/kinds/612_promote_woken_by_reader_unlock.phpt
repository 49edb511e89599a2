--TEST--
waitTimeout: a promote() waiting for another reader is woken by that reader's unlock(), which leaves our read lock the one holder while our promotion's writer mark is live, and now announces the release; before, only the key's going was announced, and the promotion waited for its backoff (here a first pause of at least 60 s: it timed out); a lock() waiting for two readers is still woken only once both left
--EXTENSIONS--
redlock
pcntl
posix
--FILE--
<?php
require __DIR__ . '/../inc/watch.inc';
$ports = rt_ports();
$servers = rt_servers(5, 1.0);
$flag = sys_get_temp_dir() . '/redlock-612-' . getmypid();

/** Forks $release, run once $key's waiter listens on every server and made its attempt; the time it ran in $flag. */
function release_later(array $ports, string $key, string $flag, callable $release): int
{
    @unlink($flag);
    $pid = pcntl_fork();
    if ($pid === 0) {
        rt_eventually(fn () => min(array_map(fn ($p) => (int) (rt_redis($p, 'PUBSUB', 'NUMSUB', "redlock:released:$key")[1] ?? 0), $ports)) > 0,
            20.0);
        usleep((int) (300000 * rt_load_scale())); // its attempt once subscribed made
        $at = microtime(true);
        $release();
        file_put_contents($flag, (string) $at);
        posix_kill(getmypid(), SIGKILL);
    }
    return $pid;
}

// retryDelay 120 s: the first pause is at least 60 s, three times the 20 s waitTimeout: a waiter that gets in
// was woken by a message
$waiter = new RedLock($servers, 120000, 0, ['waitTimeout' => 20000]);
$other = new RedLock($servers, 10, 0);

$key = rt_key('promote');
$mine = $waiter->lockShared($key, 60000);
$theirs = $other->lockShared($key, 60000);
$pid = release_later($ports, $key, $flag, fn () => $other->unlock($theirs));
$promoted = $waiter->promote($mine, 30000);
pcntl_waitpid($pid, $status);
$took = microtime(true) - (float) @file_get_contents($flag);
echo 'promote() after the other reader left: ', is_array($promoted) ? 'got it' : 'no', ', within 2 s x load: ',
    var_export($took < 2.0 * rt_load_scale() * rt_time_scale(), true), "\n";
var_dump(is_array($promoted) && $waiter->unlock($promoted));

// lock() behind two readers: the first one's unlock leaves one, the second's frees the key
$key = rt_key('lock');
$a = $other->lockShared($key, 60000);
$b = $other->lockShared($key, 60000);
$pid = release_later($ports, $key, $flag, function () use ($other, $a, $b) {
    $other->unlock($a);
    usleep((int) (300000 * rt_load_scale()));
    $other->unlock($b);
});
$lock = $waiter->lock($key, 30000);
pcntl_waitpid($pid, $status);
$took = microtime(true) - (float) @file_get_contents($flag);
echo 'lock() after both readers left: ', is_array($lock) ? 'got it' : 'no', ', within 2 s x load: ',
    var_export($took < 2.0 * rt_load_scale() * rt_time_scale(), true), "\n";
var_dump(is_array($lock) && $waiter->unlock($lock));
@unlink($flag);
foreach ($ports as $p) {
    rt_redis($p, 'DEL', rt_key('promote') . ':writers', rt_key('lock') . ':writers');
}
var_dump(rt_values_are(rt_key('promote'), array_fill(0, 5, null)), rt_values_are(rt_key('lock'), array_fill(0, 5, null)));
?>
--EXPECT--
promote() after the other reader left: got it, within 2 s x load: true
bool(true)
lock() after both readers left: got it, within 2 s x load: true
bool(true)
bool(true)
bool(true)
