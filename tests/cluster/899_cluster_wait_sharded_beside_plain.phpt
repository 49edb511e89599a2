--TEST--
waitTimeout on a cluster:// member, waiters of both kinds on one key: a release whose SPUBLISH reached a sharded waiter still PUBLISHes when the key's master has a plain subscriber of the key's channel. A waiter of a version before sharded wake-ups (SUBSCRIBE on the owner, as in a rolling upgrade) hears the release beside a sharded one; a waiter whose SSUBSCRIBE is refused (an ACL user without it) is woken beside another waiter that SSUBSCRIBEd, long before its 30-60 s backoff (it was not woken: the PUBLISH was left out once the SPUBLISH reached someone)
--EXTENSIONS--
redlock
pcntl
--SKIPIF--
<?php require __DIR__ . '/../inc/cluster.inc'; echo cl_skip_reason();
--FILE--
<?php
require __DIR__ . '/../inc/cluster.inc';
$scale = rt_time_scale();
$timeout = min(60.0, 2.0 * $scale);

/* A subscription on $port ($command: SUBSCRIBE or SSUBSCRIBE) to $channel: the link (confirmed). */
function spy(int $port, string $command, string $channel)
{
    $link = stream_socket_client("tcp://127.0.0.1:$port", $errno, $errstr, 2.0);
    stream_set_timeout($link, 10);
    fwrite($link, "*2\r\n\$" . strlen($command) . "\r\n$command\r\n\$" . strlen($channel) . "\r\n$channel\r\n");
    rt_read_reply($link);
    return $link;
}

/* How many messages the spy heard: PING answers after what the node published before it (locally, at once). */
function heard($link): int
{
    fwrite($link, "*1\r\n\$4\r\nPING\r\n");
    for ($i = 0; $i < 10 && ($reply = rt_read_reply($link)) !== ['pong', '']; $i++);
    return $i;
}

// the releaser has waitTimeout: on Redis >= 8.4 and Valkey >= 9 only such objects release by script and
// announce it (others use DELEX/DELIFEQ, docs/guide/renewal-and-waiting.md); Redis 8.6 failed here without
$holder = new RedLock([cl_uri("?timeout=$timeout")], 20, 1, ['waitTimeout' => 1000]);

// a rolling upgrade: a waiter of the previous version SUBSCRIBEs on the owner, one of this version SSUBSCRIBEs there
$res = rt_key('upgrade');
$owner = cl_owner($res);
$h = $holder->lock($res, 30000);
$sharded = spy($owner, 'SSUBSCRIBE', 'redlock:released:{' . $res . '}');
$plain = spy($owner, 'SUBSCRIBE', 'redlock:released:' . $res);
echo 'upgrade: released: ', $holder->unlock($h) ? 'yes' : 'no', ', the sharded waiter heard ', heard($sharded),
    ', the previous version\'s ', heard($plain), "\n";

// a waiter refused SSUBSCRIBE (SUBSCRIBE instead) beside one that SSUBSCRIBEd
$user = 'rl899-' . bin2hex(random_bytes(3));
foreach (array_keys(cl_nodes()) as $port) {
    rt_redis($port, 'ACL', 'SETUSER', $user, 'on', '>pw899', '~*', '&*', '+@all', '-ssubscribe');
}
$res = rt_key('refused');
$owner = cl_owner($res);
$h = $holder->lock($res, 30000);
$sharded = spy($owner, 'SSUBSCRIBE', 'redlock:released:{' . $res . '}');
$pid = pcntl_fork();
if ($pid === 0) {
    $limited = new RedLock(['cluster://' . $user . ':pw899@' . getenv('REDLOCK_TEST_CLUSTER') . "?timeout=$timeout"], 60000, 1,
        ['waitTimeout' => (int) (6000 * $scale)]);
    $t0 = microtime(true);
    $w = $limited->lock($res, 5000);
    $took = microtime(true) - $t0;
    exit(($w ? 0 : 1) + ($took < 6.0 * $scale ? 0 : 2)); // told by the parent, after its own lines
}
$listening = rt_eventually(fn () => (rt_redis($owner, 'PUBSUB', 'NUMSUB', 'redlock:released:' . $res)[1] ?? 0) === 1, 3.0 * $scale * rt_load_scale()); // a hang guard: a fresh object in a child subscribes after its map and its first attempt
echo 'refused: the waiter SUBSCRIBEd: ', $listening ? 'yes' : 'no', "\n";
$released = $holder->unlock($h);
echo 'refused: released: ', $released ? 'yes' : 'no', ', the sharded waiter heard ', heard($sharded), "\n";
pcntl_waitpid($pid, $status);
$code = pcntl_wexitstatus($status);
printf("refused: woken and got the lock: %s, before its waitTimeout: %s\n", $code & 1 ? 'no' : 'yes', $code & 2 ? 'no' : 'yes');
foreach (array_keys(cl_nodes()) as $port) {
    rt_redis($port, 'ACL', 'DELUSER', $user);
}
?>
--EXPECT--
upgrade: released: yes, the sharded waiter heard 1, the previous version's 1
refused: the waiter SUBSCRIBEd: yes
refused: released: yes, the sharded waiter heard 1
refused: woken and got the lock: yes, before its waitTimeout: yes
