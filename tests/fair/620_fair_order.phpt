--TEST--
fair waiting: 6 waiters in 6 processes, queued one after the other while the lock is held, get it in their order of arrival (a release hands it to the head only); inspect()['waiters'] counts the queue as it grows and shrinks; nothing is left on the servers after
--EXTENSIONS--
redlock
pcntl
posix
--FILE--
<?php
require __DIR__ . '/../inc/fair.inc';
$key = rt_key();
$log = sys_get_temp_dir() . '/redlock-610-' . getmypid();
@unlink($log);
$holder = fr_object();
$lock = $holder->lock($key, 10000);
echo 'holder: ', is_array($lock) ? 'held' : 'no', ', waiters ', fr_waiters($holder, $key), "\n";
$pids = [];
foreach (['a', 'b', 'c', 'd', 'e', 'f'] as $i => $name) {
    $pids[] = fr_spawn($key, $name, $log);
    fr_until_waiters($holder, $key, $i + 1); // in the queue before the next one comes
}
echo 'queued: ', fr_waiters($holder, $key), "\n";
var_dump($holder->unlock($lock));
foreach ($pids as $pid) {
    pcntl_waitpid($pid, $status);
}
$got = fr_log($log);
echo 'order: ', implode(' ', array_map(fn ($e) => $e[0] . ':' . $e[1], $got)), "\n";
echo 'after: waiters ', fr_waiters($holder, $key), ', queues ', json_encode(fr_queue_lengths($key)), ', locked ',
    var_export($holder->isLocked($key), true), "\n";
@unlink($log);
?>
--EXPECT--
holder: held, waiters 0
queued: 6
bool(true)
order: a:got b:got c:got d:got e:got f:got
after: waiters 0, queues [0,0,0,0,0], locked false
