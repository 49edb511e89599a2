--TEST--
fair waiting: a waiter SIGKILLed while at the head of the queue is skipped within one heartbeat period (1 s): the release wakes the dead head, nobody answers, and the next waiter gets the lock once the dead one's heartbeat key has lapsed; the queue is empty after
--EXTENSIONS--
redlock
pcntl
posix
--FILE--
<?php
require __DIR__ . '/../inc/fair.inc';
$key = rt_key();
$log = sys_get_temp_dir() . '/redlock-611-' . getmypid();
@unlink($log);
$holder = fr_object();
$lock = $holder->lock($key, 10000);
$dead = fr_spawn($key, 'dead', $log);
fr_until_waiters($holder, $key, 1);
$next = fr_spawn($key, 'next', $log, 6000);
fr_until_waiters($holder, $key, 2);
posix_kill($dead, SIGKILL);
pcntl_waitpid($dead, $status);
$killed = microtime(true);
var_dump($holder->unlock($lock)); // wakes the dead head
pcntl_waitpid($next, $status);
$got = fr_log($log);
echo 'log: ', implode(' ', array_map(fn ($e) => $e[0] . ':' . $e[1], $got)), "\n";
$after = isset($got[0][2]) ? ((float) $got[0][2] - $killed) * 1000 : INF;
/* the dead one's heartbeat key lives 750 ms from its last attempt (at most 250 ms before the kill),
 * the next waiter attempts at least every 250 ms: 1000 ms, and a margin for a loaded machine */
$bound = 1000 + 500 * max(rt_time_scale(), rt_load_scale());
echo 'next got it within a heartbeat: ', $after <= $bound ? 'yes' : "no ($after ms, bound $bound)", "\n";
echo 'after: waiters ', fr_waiters($holder, $key), ', queues ', json_encode(fr_queue_lengths($key)), "\n";
@unlink($log);
?>
--EXPECT--
bool(true)
log: next:got
next got it within a heartbeat: yes
after: waiters 0, queues [0,0,0,0,0]
