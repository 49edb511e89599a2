--TEST--
waitTimeout on a cluster:// member and on fromCluster(): the waiter SSUBSCRIBEs (sharded pub/sub) on the master of its key's slot (PUBSUB SHARDNUMSUB there counts it, no plain subscription on any master), the release's SPUBLISH wakes it long before its 30-60 s backoff, and reaching it the release PUBLISHes nothing to the whole cluster (a plain subscriber on another master hears nothing); a key holding '}' without a hash tag (no channel in its slot) is waited for by SUBSCRIBE and woken by the PUBLISH, and so is a waiter whose SSUBSCRIBE is refused (an ACL user without it, as a server before 7.0)
--EXTENSIONS--
redlock
pcntl
posix
--SKIPIF--
<?php require __DIR__ . '/../inc/cluster.inc'; echo cl_skip_reason();
--FILE--
<?php
require __DIR__ . '/../inc/cluster.inc';
$scale = rt_time_scale();
$timeout = min(60.0, 2.0 * $scale);

/* A SUBSCRIBE on $port to $channel: the link (its confirmation read). */
function plain_spy(int $port, string $channel)
{
    $link = stream_socket_client("tcp://127.0.0.1:$port", $errno, $errstr, 2.0);
    stream_set_timeout($link, 10);
    fwrite($link, "*2\r\n\$9\r\nSUBSCRIBE\r\n\$" . strlen($channel) . "\r\n$channel\r\n");
    rt_read_reply($link);
    return $link;
}

/* What a spy on another node than $owner heard of $channel: a PUBLISH reaches every node over the
 * cluster bus, in order, so the owner's marker PUBLISHed now comes after any PUBLISH of the release. */
function heard($link, int $owner, string $channel): array
{
    rt_redis($owner, 'PUBLISH', $channel, 'marker');
    $heard = [];
    for ($i = 0; $i < 10 && ($reply = rt_read_reply($link)) !== ['message', $channel, 'marker']; $i++) {
        $heard[] = $reply;
    }
    return $heard;
}

/* $holder holds $h; a child watches the owners (port => the key there, as sent) until the waiter's
 * sharded subscriptions (port => their channel) show, then releases; the waiter (backoff 30-60 s) must
 * be woken by that release. */
function case_of(string $name, RedLock $holder, array $h, RedLock $waiter, string $res, array $keys, array $sharded_channels,
    float $scale): void
{
    $pid = pcntl_fork();
    if ($pid === 0) {
        $masters = cl_masters();
        $counts = function () use ($keys, $sharded_channels, $masters) {
            $sharded = $plain = [];
            foreach ($sharded_channels as $port => $channel) {
                $sharded[$port] = rt_redis($port, 'PUBSUB', 'SHARDNUMSUB', $channel)[1] ?? -1;
            }
            foreach ($masters as $port) {
                $plain[] = rt_redis($port, 'PUBSUB', 'NUMSUB', 'redlock:released:' . ($keys[$port] ?? reset($keys)))[1] ?? -1;
            }
            return [$sharded, $plain];
        };
        // a hang guard, not a timing claim: the waiter subscribes after its first attempt, and on a loaded
        // machine (CI's trixie-valkey leg beside the valgrind lane) one of three fromCluster() subscriptions
        // was not yet counted after a fixed 3 s
        rt_eventually(fn () => array_sum(array_merge(...$counts())) === count($keys), 3.0 * $scale * rt_load_scale());
        [$sharded, $plain] = $counts();
        printf("%s: sharded subscriptions on the owners: %s, plain on the masters: %d\n", $name,
            json_encode(array_values($sharded)), array_sum($plain));
        $port = array_key_first($keys);
        $channel = 'redlock:released:' . $keys[$port];
        $spy = plain_spy(array_values(array_diff(cl_masters(), [$port]))[0], $channel);
        // the waiter stopped while the release runs: a fromCluster() waiter woken by a quorum of announcements
        // leaves its sharded channels, and a release reaching this owner after that (the last of three, on a
        // loaded machine) rightly PUBLISHes, its SPUBLISH having reached nobody (CI failed on it so)
        $waiter_pid = posix_getppid();
        register_shutdown_function(fn () => posix_kill($waiter_pid, SIGCONT)); // whatever ends this child
        posix_kill($waiter_pid, SIGSTOP);
        rt_eventually(fn () => preg_match('/^\d+ \(.*\) T /', (string) @file_get_contents("/proc/$waiter_pid/stat")) === 1);
        $released = $holder->unlock($h);
        // the release may have settled on a quorum before this owner ran it: our token gone from its key, it has
        rt_eventually(fn () => rt_redis($port, 'GET', $keys[$port]) !== $h['token'], 2.0 * $scale * rt_load_scale());
        printf("%s: released %s, the owner PUBLISHed %d (heard on another master)\n", $name, $released ? 'yes' : 'no',
            count(heard($spy, $port, $channel)));
        exit(0);
    }
    $t0 = microtime(true);
    $w = $waiter->lock($res, 5000);
    $took = microtime(true) - $t0;
    pcntl_waitpid($pid, $status);
    printf("%s: woken and got the lock: %s, before the backoff: %s\n", $name, $w ? 'yes' : 'no ' . json_encode($waiter->getLastErrors()),
        $took < 15.0 ? 'yes' : sprintf('no (%.1f s)', $took));
    $w && $waiter->unlock($w);
}

// a cluster:// member: its channel is "redlock:released:{key}", in the key's slot
$res = rt_key('member');
// the releaser has waitTimeout: on Redis >= 8.4 and Valkey >= 9 only such objects release by script and
// announce it (others use DELEX/DELIFEQ, docs/guide/renewal-and-waiting.md); Redis 8.6 failed here without
$holder = new RedLock([cl_uri("?timeout=$timeout")], 20, 1, ['waitTimeout' => 1000]);
$h = $holder->lock($res, 30000);
$waiter = new RedLock([cl_uri("?timeout=$timeout")], 60000, 1, ['waitTimeout' => (int) (6000 * $scale)]);
case_of('member', $holder, $h, $waiter, $res, [cl_owner($res) => $res], [cl_owner($res) => 'redlock:released:{' . $res . '}'], $scale);

// a key holding '}' without a hash tag has no channel in its slot: SUBSCRIBE, and the release PUBLISHes
$res = rt_key('a}b');
$h = $holder->lock($res, 30000);
case_of('no sharded channel', $holder, $h, $waiter, $res, [cl_owner($res) => $res], [], $scale);

// a user the servers refuse SSUBSCRIBE (as a server before 7.0 refuses it): SUBSCRIBE on the same connection
$user = 'rl893-' . bin2hex(random_bytes(3));
foreach (array_keys(cl_nodes()) as $port) {
    rt_redis($port, 'ACL', 'SETUSER', $user, 'on', '>pw893', '~*', '&*', '+@all', '-ssubscribe');
}
$res = rt_key('acl');
$h = $holder->lock($res, 30000);
$limited = new RedLock(['cluster://' . $user . ':pw893@' . getenv('REDLOCK_TEST_CLUSTER') . "?timeout=$timeout"], 60000, 1,
    ['waitTimeout' => (int) (6000 * $scale)]);
case_of('SSUBSCRIBE refused', $holder, $h, $limited, $res, [cl_owner($res) => $res], [cl_owner($res) => 'redlock:released:{' . $res . '}'], $scale);
foreach (array_keys(cl_nodes()) as $port) {
    rt_redis($port, 'ACL', 'DELUSER', $user);
}

// fromCluster(): each member's key carries its master's tag, and so does its channel
$res = rt_key('fromCluster');
$seeds = getenv('REDLOCK_TEST_CLUSTER') . "?timeout=$timeout";
// the releaser has waitTimeout: on Redis >= 8.4 and Valkey >= 9 only such objects release by script and
// announce it (others use DELEX/DELIFEQ, docs/guide/renewal-and-waiting.md); Redis 8.6 failed here without
$holder = RedLock::fromCluster($seeds, 20, 1, ['waitTimeout' => 1000]);
$h = $holder->lock($res, 30000);
// lock() returns on a quorum: the last member's write may still be on its way, and a key read too early (null)
// named the channel 'redlock:released:' there, counted 0 and heard the wrong PUBLISH (1 run in 10 here, idle)
rt_eventually(fn () => !in_array(null, array_map(fn ($p) => cl_member_key($p, $res), cl_masters()), true));
$keys = [];
foreach (cl_masters() as $port) {
    $keys[$port] = cl_member_key($port, $res);
}
$waiter = RedLock::fromCluster($seeds, 60000, 1, ['waitTimeout' => (int) (6000 * $scale)]);
case_of('fromCluster', $holder, $h, $waiter, $res, $keys, array_map(fn ($k) => "redlock:released:$k", $keys), $scale);
?>
--EXPECT--
member: sharded subscriptions on the owners: [1], plain on the masters: 0
member: released yes, the owner PUBLISHed 0 (heard on another master)
member: woken and got the lock: yes, before the backoff: yes
no sharded channel: sharded subscriptions on the owners: [], plain on the masters: 1
no sharded channel: released yes, the owner PUBLISHed 1 (heard on another master)
no sharded channel: woken and got the lock: yes, before the backoff: yes
SSUBSCRIBE refused: sharded subscriptions on the owners: [0], plain on the masters: 1
SSUBSCRIBE refused: released yes, the owner PUBLISHed 1 (heard on another master)
SSUBSCRIBE refused: woken and got the lock: yes, before the backoff: yes
fromCluster: sharded subscriptions on the owners: [1,1,1], plain on the masters: 0
fromCluster: released yes, the owner PUBLISHed 0 (heard on another master)
fromCluster: woken and got the lock: yes, before the backoff: yes
