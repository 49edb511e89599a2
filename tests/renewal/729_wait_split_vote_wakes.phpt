--TEST--
waitTimeout: announcements of several tokens, each from fewer servers than a quorum, that together come from a quorum (a split vote's rollbacks: the lock is then free on a quorum) wake a waiter at once, even after its minority wake-up of the retryDelay is spent
--EXTENSIONS--
redlock
pcntl
posix
--FILE--
<?php
require __DIR__ . '/../inc/watch.inc';
$ports = rt_ports();
$key = rt_key();
$channel = "redlock:released:$key";

// The key held by hand on all 5 servers (a holder's). retryDelay 120 s: the waiter's first pause is at least
// 60 s, three times its 20 s wait, so it attempts again only when woken.
$token = fn () => bin2hex(random_bytes(16)) . bin2hex(random_bytes(8)); // a token's form, nobody's
$held = $token();
foreach ($ports as $port) {
    rt_redis($port, 'SET', $key, $held, 'PX', '60000');
}
$attempts = 0;
$waiter = new RedLock(rt_servers(5, 1.0), 120000, 0, ['waitTimeout' => 20000,
    'observer' => function (array $call) use (&$attempts) { $attempts = $call['attempts']; }]);

$base = array_map('wt_scripts_run', $ports); // the waiter's attempts: one script on each server each
$pid = pcntl_fork();
if ($pid === 0) {
    // the waiter listens (it subscribes on every server before the attempt its waiting follows), and that
    // attempt has landed everywhere: its first and its second
    rt_eventually(fn () => min(array_map(fn ($port) => rt_redis($port, 'PUBSUB', 'NUMSUB', $channel)[1], $ports)) >= 1, 20.0);
    wt_until_scripts($ports, $base, 2);
    rt_redis($ports[0], 'PUBLISH', $channel, $token()); // a minority's: spends the waiter's wake-up of the retryDelay
    wt_until_scripts($ports, $base, 3); // the attempt it woke, which finds the key held everywhere, landed (no fixed sleep)
    // A split vote's end: the key goes from every server, under three tokens, none announced by a quorum.
    $split = [$token(), $token(), $token()];
    foreach ([0 => 0, 1 => 0, 2 => 1, 3 => 2, 4 => 2] as $i => $t) {
        rt_redis($ports[$i], 'DEL', $key);
        rt_redis($ports[$i], 'PUBLISH', $channel, $split[$t]);
    }
    posix_kill(getmypid(), SIGKILL);
}
$start = microtime(true);
$lock = $waiter->lock($key, 5000);
$took = microtime(true) - $start;
pcntl_waitpid($pid, $status);
// 4: its first, the one once subscribed, the one the minority woke, the one the split's quorum woke
echo "a split vote's rollbacks from a quorum: ", is_array($lock) ? 'got it' : 'no', ', before its backoff: ',
    var_export($took < 15.0 * rt_load_scale(), true), ', attempts 4: ', var_export($attempts === 4, true),
    $attempts !== 4 ? " ($attempts)" : '', "\n";
if (is_array($lock)) {
    $waiter->unlock($lock);
}
var_dump(rt_values_are($key, array_fill(0, 5, null)));
?>
--EXPECT--
a split vote's rollbacks from a quorum: got it, before its backoff: true, attempts 4: true
bool(true)
