--TEST--
Sentinel members: SENTINEL FAILOVER forced while a lock() waits, notified ('waitTimeout') and by retries: the call stays bounded, and the lock it returns is held by a quorum of the members' current masters
--EXTENSIONS--
redlock
pcntl
posix
--SKIPIF--
<?php require __DIR__ . '/../inc/sentinel.inc'; sn_skipif(); ?>
--FILE--
<?php
require __DIR__ . '/../inc/sentinel.inc';
$members = sn_start(3, 2);
$uris = array_map(fn ($m) => sn_uri($m), $members);
$flag = sys_get_temp_dir() . '/redlock-859-' . getmypid();

/** A child that fails over $member (and demotes its old master as Sentinel would), then runs $after;
 * it never runs the parent's shutdown functions (the servers are the parent's to stop). */
function fail_over_in_child(array $member, string $flag, callable $after): int
{
    @unlink($flag);
    $pid = pcntl_fork();
    if ($pid === 0) {
        usleep(300000); // the parent is waiting by now
        $old = $member['master']['port'];
        $new = sn_failover($member);
        rt_redis($old, 'REPLICAOF', '127.0.0.1', (string) $new);
        rt_redis($old, 'CLIENT', 'KILL', 'TYPE', 'normal');
        $after();
        file_put_contents($flag, 'failed over');
        posix_kill(getmypid(), SIGKILL);
    }
    return $pid;
}

/** How many members' current masters hold $token at $key. */
function holders(array $members, string $key, string $token): int
{
    return count(array_filter($members, fn ($m) => rt_redis(sn_master_port($m), 'GET', $key) === $token));
}

/* Notified waiting: the holder's lock is released (by script: announced) once member 0 failed over. */
$key = rt_key('wait');
$holder = new RedLock($uris, 10, 0, ['waitTimeout' => 5000]);
$held = $holder->lock($key, 30000);
$pid = fail_over_in_child($members[0], $flag, function () use ($uris, $held) {
    (new RedLock($uris, 10, 0, ['waitTimeout' => 5000]))->unlock($held);
});
$waiter = new RedLock($uris, 120000, 0, ['waitTimeout' => 25000]); // a backoff longer than the wait: only the release wakes it
$start = microtime(true);
$lock = $waiter->lock($key, 10000);
$took = microtime(true) - $start;
pcntl_waitpid($pid, $status);
echo 'child: ', @file_get_contents($flag), "\n";
echo 'waitTimeout: ', is_array($lock) ? 'got it' : 'no', ', within the wait: ', json_encode($took < 25), "\n";
echo 'held by ', holders($members, $key, $lock['token']), " of 3 masters\n";
var_dump($waiter->unlock($lock));

/* Retries: member 1 fails over while attempts meet a lock held until its ttl (2.5 s) runs out. */
$key = rt_key('retry');
$held = $holder->lock($key, 2500);
$pid = fail_over_in_child($members[1], $flag, fn () => null);
$retrier = new RedLock($uris, 200, 60);
$start = microtime(true);
$lock = $retrier->lock($key, 10000);
$took = microtime(true) - $start;
pcntl_waitpid($pid, $status);
echo 'child: ', @file_get_contents($flag), "\n";
echo 'retries: ', is_array($lock) ? 'got it' : 'no', ', after the holder\'s ttl: ', json_encode($took > 2.0), ', bounded: ', json_encode($took < 20), "\n";
echo 'held by ', holders($members, $key, $lock['token']), " of 3 masters\n";
var_dump($retrier->unlock($lock));
@unlink($flag);
?>
--EXPECTF--
child: failed over
waitTimeout: got it, within the wait: true
held by %r[23]%r of 3 masters
bool(true)
child: failed over
retries: got it, after the holder's ttl: true, bounded: true
held by %r[23]%r of 3 masters
bool(true)
