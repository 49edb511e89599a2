--TEST--
fair waiting with lockSemaphore(): a waiter SIGKILLed at the head of the semaphore's queue is skipped within one heartbeat period (1 s): the freed slot's release wakes the dead head, nobody answers, and the next waiter takes the slot once the dead one's heartbeat key has lapsed; nothing is left in the queue after
--EXTENSIONS--
redlock
pcntl
posix
--FILE--
<?php
require __DIR__ . '/../inc/fair.inc';
$key = rt_key();
$log = sys_get_temp_dir() . '/redlock-626-' . getmypid();
@unlink($log);
$holder = fr_object();
$one = $holder->lockSemaphore($key, 2, 10000);
$two = $holder->lockSemaphore($key, 2, 10000);
$dead = fr_sem_spawn($key, 2, 'dead', $log);
fr_sem_until_waiters($holder, $key, 2, 1);
$next = fr_sem_spawn($key, 2, 'next', $log, 6000);
fr_sem_until_waiters($holder, $key, 2, 2);
posix_kill($dead, SIGKILL);
pcntl_waitpid($dead, $status);
$killed = microtime(true);
var_dump($holder->unlock($one)); // wakes the dead head
pcntl_waitpid($next, $status);
$got = fr_log($log);
echo 'log: ', implode(' ', array_map(fn ($e) => $e[0] . ':' . $e[1], $got)), "\n";
$after = isset($got[0][2]) ? ((float) $got[0][2] - $killed) * 1000 : INF;
/* as tests/fair/621: the dead one's heartbeat key lives 750 ms from its last attempt (at most 250 ms
 * before the kill), the next waiter attempts at least every 250 ms: 1000 ms, and a margin for the load */
$bound = 1000 + 500 * max(rt_time_scale(), rt_load_scale());
echo 'next got a slot within a heartbeat: ', $after <= $bound ? 'yes' : "no ($after ms, bound $bound)", "\n";
var_dump($holder->unlock($two));
echo 'after: waiters ', fr_sem_waiters($holder, $key, 2), ', left ', json_encode(fr_sem_leftovers($key)), "\n";
@unlink($log);
?>
--EXPECT--
bool(true)
log: next:got
next got a slot within a heartbeat: yes
bool(true)
after: waiters 0, left [0,0,0,0,0]
