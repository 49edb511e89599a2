--TEST--
autoExtend: the renewal thread stops (and its sockets close) at unlock(), when the object is freed, and never runs in a forked child; the parent keeps renewing across the child's life; a child can renew its own locks
--EXTENSIONS--
redlock
pcntl
posix
--FILE--
<?php
require __DIR__ . '/../inc/watch.inc';
$key = rt_key();
rt_values($key);
$threads = wt_threads();
$sockets = wt_sockets();
$opts = ['autoExtend' => true, 'persistent' => false];

// unlock(): the last lock of the object gone, the thread is joined and its connections closed.
$r = new RedLock(rt_servers(5), 10, 0, $opts);
$a = $r->lock("$key-a", 1500);
$b = $r->lock("$key-b", 1500);
usleep(700000); // past the first renewal (ttl/3): the thread has connected
echo 'threads with two locks: ', wt_threads() - $threads, "\n";
$r->unlock($a);
echo 'threads with one: ', wt_threads() - $threads, "\n";
$r->unlock($b);
echo 'threads with none: ', wt_threads_settled($threads) - $threads, ', sockets beyond the object\'s own: ', wt_sockets() - $sockets - 5, "\n";
unset($r);

// Freeing the object: a lock never unlocked stops being renewed and expires.
$r = new RedLock(rt_servers(5), 10, 0, $opts);
$c = $r->lock("$key-c", 1500);
usleep(700000);
unset($r);
echo 'after free: threads ', wt_threads_settled($threads) - $threads, ', sockets ', wt_sockets() - $sockets, "\n";
$other = new RedLock(rt_servers(5), 10, 0, ['persistent' => false]);
$got = false;
wt_until(function () use ($other, $key, &$got) { return (bool) ($got = $other->lock("$key-c", 1000)); }, 20, 'expiry');
var_dump(is_array($got));
$other->unlock($got);
unset($other);

// fork(): the child has no renewal thread of its parent, does not renew the parent's lock, can unlock
// nothing it does not own, and can renew locks of its own. The parent goes on renewing meanwhile.
$r = new RedLock(rt_servers(5), 10, 0, $opts);
$d = $r->lock("$key-d", 1500);
usleep(250000);
$pid = pcntl_fork();
if ($pid === 0) {
    $out = 'child threads: ' . wt_threads() . "\n";
    // The parent's lock is not the child's to keep: validity() still answers from the servers.
    $out .= 'child sees the parent\'s lock valid: ' . var_export($r->validity($d) > 0, true) . "\n";
    $e = $r->lock("$key-e", 1500);                // a lock of the child's own, renewed by the child's thread
    $out .= 'child threads with its own lock: ' . wt_threads() . "\n";
    usleep(3000000);                             // 2 x the ttl
    $out .= 'child\'s own lock held after 2 ttl: ' . var_export($r->validity($e) > 0, true) . "\n";
    $r->unlock($e);
    $out .= 'child threads after unlock: ' . wt_threads_settled(1) . "\n";
    file_put_contents(sys_get_temp_dir() . '/redlock-704-' . getmypid(), $out);
    posix_kill(getmypid(), SIGKILL);             // no shutdown: nothing of the parent's is touched
}
pcntl_waitpid($pid, $status);
echo file_get_contents(sys_get_temp_dir() . "/redlock-704-$pid");
@unlink(sys_get_temp_dir() . "/redlock-704-$pid");
echo 'parent still holds after the child: ', count(array_filter(rt_values("$key-d"), fn ($v) => $v === $d['token'])), " of 5\n";
var_dump($r->validity($d) > 0);
$r->unlock($d);
unset($r);
echo 'end: threads ', wt_threads_settled($threads) - $threads, ', sockets ', wt_sockets() - $sockets, "\n";
?>
--EXPECT--
threads with two locks: 1
threads with one: 1
threads with none: 0, sockets beyond the object's own: 0
after free: threads 0, sockets 0
bool(true)
child threads: 1
child sees the parent's lock valid: true
child threads with its own lock: 2
child's own lock held after 2 ttl: true
child threads after unlock: 1
parent still holds after the child: 5 of 5
bool(true)
end: threads 0, sockets 0
