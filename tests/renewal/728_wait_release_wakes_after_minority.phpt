--TEST--
waitTimeout: once a minority's announcement (another waiter's rollback) has woken a waiter, another one within retryDelay wakes nothing, but the holder's unlock() still wakes it at once: its token is announced by a quorum of the servers; a slow release, whose first server's message woke the waiter before its other servers were free, wakes it again once its quorum is in
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
$flag = sys_get_temp_dir() . '/redlock-728-' . getmypid();
@unlink($flag);

// The holder is on servers 0-2 only (its own 3 servers, quorum 2): the waiter's attempts win 3 and 4 and
// roll back there, which a reader of server 4's channel sees (one message per attempt). retryDelay 120 s: the
// waiter's first pause is at least 60 s, three times its 20 s wait, so it attempts again only when woken.
$holder = new RedLock(rt_servers(3, 1.0), 10, 0, ['waitTimeout' => 5000]); // releases by script, which announces
$held = $holder->lock($key, 60000);
$attempts = 0;
$waiter = new RedLock(rt_servers(5, 1.0), 120000, 0, ['waitTimeout' => 20000,
    'observer' => function (array $call) use (&$attempts) { $attempts = $call['attempts']; }]);

$pid = pcntl_fork();
if ($pid === 0) {
    $sub = stream_socket_client("tcp://127.0.0.1:{$ports[4]}", $errno, $errstr, 2.0);
    stream_set_timeout($sub, (int) (20 * rt_time_scale()));
    fwrite($sub, "*2\r\n\$9\r\nSUBSCRIBE\r\n\$" . strlen($channel) . "\r\n$channel\r\n");
    rt_read_reply($sub);
    file_put_contents($flag, 'ready');
    $attempt = fn () => rt_read_reply($sub); // the waiter's next attempt, by its rollback on server 4
    $attempt(); // its first
    $attempt(); // the one once subscribed: the waiting has begun
    $token = fn () => bin2hex(random_bytes(16)) . bin2hex(random_bytes(8)); // a token's form, nobody's
    rt_redis($ports[0], 'PUBLISH', $channel, $token()); // a minority's announcement: wakes the waiter
    $attempt();
    // another one so soon wakes nothing: from servers 3 and 4, the only ones a rollback can free while the
    // holder is on 0-2 (with the waiter's own rollbacks there, 2 of its 5: no quorum of freed servers either)
    $late = $token();
    rt_redis($ports[3], 'PUBLISH', $channel, $late);
    rt_redis($ports[4], 'PUBLISH', $channel, $late);
    usleep((int) (300000 * rt_load_scale())); // an attempt it woke (a wrong one) would be made by now
    $holder->unlock($held); // announced by servers 0-2: a quorum of the waiter's 5
    posix_kill(getmypid(), SIGKILL);
}
rt_eventually(fn () => @file_get_contents($flag) === 'ready', 20.0);
$lock = $waiter->lock($key, 5000);
pcntl_waitpid($pid, $status);
// 4: its first, the one once subscribed, the one the minority woke, the one the holder's unlock() woke
echo "the holder's unlock() after a minority's wake-up: ", is_array($lock) ? 'got it' : 'no', ', attempts 4: ',
    var_export($attempts === 4, true), $attempts !== 4 ? " ($attempts)" : '', "\n";
$waiter->unlock($lock);

// A slow release: its first server's message wakes the waiter (a minority's, the first of this wait), whose
// attempt then finds the others still held; when its quorum is in, the same token wakes the waiter again.
// A token held by hand on servers 0-3 (a holder's), released on 0, then on 1 and 2, announced each time.
$key = rt_key('slow');
$channel = "redlock:released:$key";
$token = bin2hex(random_bytes(16)) . bin2hex(random_bytes(8));
foreach ([0, 1, 2, 3] as $i) {
    rt_redis($ports[$i], 'SET', $key, $token, 'PX', '60000');
}
@unlink($flag);
$pid = pcntl_fork();
if ($pid === 0) {
    $sub = stream_socket_client("tcp://127.0.0.1:{$ports[4]}", $errno, $errstr, 2.0);
    stream_set_timeout($sub, (int) (20 * rt_time_scale()));
    fwrite($sub, "*2\r\n\$9\r\nSUBSCRIBE\r\n\$" . strlen($channel) . "\r\n$channel\r\n");
    rt_read_reply($sub);
    file_put_contents($flag, 'ready');
    $attempt = fn () => rt_read_reply($sub); // the waiter's next attempt, by its rollback on server 4
    $attempt();
    $attempt(); // the waiting has begun
    $release = function (int $i) use ($ports, $key, $channel, $token) {
        rt_redis($ports[$i], 'DEL', $key);
        rt_redis($ports[$i], 'PUBLISH', $channel, $token);
    };
    $release(0); // wakes the waiter: its attempt wins 0 and 4 only
    $attempt();
    $release(1);
    $release(2); // the token's quorum: 0, 1, 2
    posix_kill(getmypid(), SIGKILL);
}
rt_eventually(fn () => @file_get_contents($flag) === 'ready', 20.0);
$attempts = 0;
$lock = $waiter->lock($key, 5000);
pcntl_waitpid($pid, $status);
// 4: its first, the one once subscribed, the one server 0's message woke, the one the quorum woke
echo "a release whose quorum came after its first server's message: ", is_array($lock) ? 'got it' : 'no', ', attempts 4: ',
    var_export($attempts === 4, true), $attempts !== 4 ? " ($attempts)" : '', "\n";
$waiter->unlock($lock);
rt_redis($ports[3], 'DEL', $key);

// A release whose quorum spans two pauses, nothing else freed meanwhile: the token's count across pauses is
// what wakes, as the servers freed within the pause are 2 of 5 (servers 1 and 2). Held by hand on all 5;
// server 0 is released and taken by a third party at once (one script: the waiter cannot win it), so the
// attempt its message wakes wins nothing and rolls nothing back. The waiter's attempts are seen by the
// scripts each server ran (wt_until_scripts).
$key = rt_key('across');
$channel = "redlock:released:$key";
$token = bin2hex(random_bytes(16)) . bin2hex(random_bytes(8));
foreach ($ports as $port) {
    rt_redis($port, 'SET', $key, $token, 'PX', '60000');
}
$base = array_map('wt_scripts_run', $ports);
$pid = pcntl_fork();
if ($pid === 0) {
    wt_until_scripts($ports, $base, 2); // its first attempt and the one once subscribed: the waiting has begun
    rt_redis($ports[0], 'EVAL', "redis.call('SET', KEYS[1], 'foreign', 'PX', '60000') return redis.call('PUBLISH', ARGV[1], ARGV[2])",
        '1', $key, $channel, $token); // a minority's message: wakes the waiter
    wt_until_scripts($ports, $base, 3);
    $release = function (int $i) use ($ports, $key, $channel, $token) {
        rt_redis($ports[$i], 'DEL', $key);
        rt_redis($ports[$i], 'PUBLISH', $channel, $token);
    };
    $release(1);
    $release(2); // the token's quorum (0, 1, 2), though this pause freed only 1 and 2
    echo "a release's quorum across two pauses woke it: ", wt_until_scripts($ports, $base, 4) ? 'yes' : 'no', "\n";
    $release(3); // then the rest, so that it gets the lock (its attempt won 1 and 2 only, and rolled back)
    $release(4);
    posix_kill(getmypid(), SIGKILL);
}
$attempts = 0;
$lock = $waiter->lock($key, 5000);
pcntl_waitpid($pid, $status);
// 5: its first, the one once subscribed, the one server 0's message woke, the one the quorum woke, the last
echo "then: ", is_array($lock) ? 'got it' : 'no', ', attempts 5: ', var_export($attempts === 5, true), $attempts !== 5 ? " ($attempts)" : '', "\n";
$waiter->unlock($lock);
rt_redis($ports[0], 'DEL', $key);
@unlink($flag);
var_dump(rt_values_are(rt_key(), array_fill(0, 5, null)), rt_values_are(rt_key('slow'), array_fill(0, 5, null)),
    rt_values_are($key, array_fill(0, 5, null)));
?>
--EXPECT--
the holder's unlock() after a minority's wake-up: got it, attempts 4: true
a release whose quorum came after its first server's message: got it, attempts 4: true
a release's quorum across two pauses woke it: yes
then: got it, attempts 5: true
bool(true)
bool(true)
bool(true)
