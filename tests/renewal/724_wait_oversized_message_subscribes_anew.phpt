--TEST--
waitTimeout: a waiter's subscription lost with its stream (here a message over the reader's 64 KB bound, which anyone allowed to PUBLISH on the channel can send, on every server; a member that restarted or closed the connection alike) is made anew on a new connection, and the holder's unlock() that follows still wakes the waiter at once; before, those servers could no longer wake it for the rest of its wait, which ran out (its first pause is 60 s)
--EXTENSIONS--
redlock
pcntl
posix
--FILE--
<?php
require __DIR__ . '/../inc/watch.inc';
$ports = rt_ports();
$servers = rt_servers(5, 1.0);

$key = rt_key('oversized');
$holder = new RedLock($servers, 10, 0);
$held = $holder->lock($key, 60000);
$flag = sys_get_temp_dir() . '/redlock-724-' . getmypid();
@unlink($flag);
$listening = fn () => min(array_map(fn ($p) => (int) (rt_redis($p, 'PUBSUB', 'NUMSUB', "redlock:released:$key")[1] ?? 0), $ports)) > 0;
$pid = pcntl_fork();
if ($pid === 0) {
    rt_eventually($listening, 20.0);
    usleep((int) (300000 * rt_load_scale())); // its attempt once subscribed made
    foreach ($ports as $p) {
        rt_redis($p, 'PUBLISH', "redlock:released:$key", str_repeat('x', 100000));
    }
    usleep((int) (300000 * rt_load_scale()));
    echo 'subscribed again on every server: ', var_export(rt_eventually($listening, 5.0 * rt_load_scale()), true), "\n";
    $at = microtime(true);
    $holder->unlock($held);
    file_put_contents($flag, (string) $at);
    posix_kill(getmypid(), SIGKILL);
}
// retryDelay 120 s: the first pause is at least 60 s, three times the 20 s waitTimeout: a waiter that gets
// the lock was woken by a message
$waiter = new RedLock($servers, 120000, 0, ['waitTimeout' => 20000]);
$lock = $waiter->lock($key, 5000);
pcntl_waitpid($pid, $status);
$took = microtime(true) - (float) @file_get_contents($flag);
echo 'after the oversized messages, the unlock: ', is_array($lock) ? 'got it' : 'no', ', within 2 s x load: ',
    var_export($took < 2.0 * rt_load_scale() * rt_time_scale(), true), "\n";
if (is_array($lock)) {
    $waiter->unlock($lock);
}
@unlink($flag);
var_dump(rt_values_are($key, array_fill(0, 5, null)));
?>
--EXPECT--
subscribed again on every server: true
after the oversized messages, the unlock: got it, within 2 s x load: true
bool(true)
