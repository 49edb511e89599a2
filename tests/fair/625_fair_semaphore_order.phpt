--TEST--
fair waiting with lockSemaphore(): limit 2, both slots held, 4 waiters in 4 processes queued one after the other get the slots in their order of arrival (a freed slot goes to the first live waiter only, never to a later one); inspect($key, 2)['waiters'] counts them and falls back to 0; no queue or heartbeat key left; lock() of the same name queues apart; a head stopped (SIGSTOP, its heartbeat alive) is not passed by a newcomer when a slot frees
--EXTENSIONS--
redlock
pcntl
posix
--FILE--
<?php
require __DIR__ . '/../inc/fair.inc';
$key = rt_key();
$log = sys_get_temp_dir() . '/redlock-625-' . getmypid();
@unlink($log);
$holder = fr_object();
$one = $holder->lockSemaphore($key, 2, 10000);
$two = $holder->lockSemaphore($key, 2, 10000);
echo 'holders: ', is_array($one) && is_array($two) && $one['slot'] !== $two['slot'] ? 'two slots' : 'no', ', waiters ',
    fr_sem_waiters($holder, $key, 2), "\n";
// a holds its slot long enough for b to be handed the other one first; b holds it past c and d
$holds = ['a' => (int) (150 * rt_time_scale()), 'b' => (int) (500 * rt_time_scale()), 'c' => 20, 'd' => 20];
$pids = [];
$i = 0;
foreach ($holds as $name => $hold) {
    $pids[] = fr_sem_spawn($key, 2, $name, $log, (int) (8000 * rt_time_scale()), $hold);
    fr_sem_until_waiters($holder, $key, 2, ++$i); // in the queue before the next one comes
}
echo 'queued: ', fr_sem_waiters($holder, $key, 2), ', lock() queue: ', fr_waiters($holder, $key), "\n";
var_dump($holder->unlock($one)); // one slot free: the head (a) alone may take it
rt_eventually(fn () => count(fr_log($log)) >= 1, 5.0 * rt_time_scale() * rt_load_scale());
echo 'first: ', implode(' ', array_map(fn ($e) => $e[0] . ':' . $e[1], fr_log($log))), ', waiters ', fr_sem_waiters($holder, $key, 2), "\n";
var_dump($holder->unlock($two)); // b; then a's slot to c, c's to d (b still holds)
foreach ($pids as $pid) {
    pcntl_waitpid($pid, $status);
}
echo 'order: ', implode(' ', array_map(fn ($e) => $e[0] . ':' . $e[1], fr_log($log))), "\n";
echo 'after: waiters ', fr_sem_waiters($holder, $key, 2), ', left ', json_encode(fr_sem_leftovers($key)), ', held ',
    var_export($holder->inspect($key, 2)['held'], true), "\n";
@unlink($log);

// a free slot is the head's while it lives: stopped (SIGSTOP, its heartbeat still alive), it is not passed
// by a newcomer's first attempt; woken again (SIGCONT), it takes the slot
$one = $holder->lockSemaphore($key, 2, 10000);
$two = $holder->lockSemaphore($key, 2, 10000);
$head = fr_sem_spawn($key, 2, 'head', $log, (int) (8000 * rt_time_scale()));
$late = fr_object((int) (300 * rt_time_scale())); // its first attempt within its waitTimeout: connected now
$late->isLocked($key);
fr_sem_until_waiters($holder, $key, 2, 1);
// queued on every server, then stopped; its heartbeat made to outlast the stop, as if it were alive and slow
$heartbeats = fn () => array_map(fn ($p) => rt_redis($p, 'KEYS', "$key:semfair:w:*"), rt_ports());
rt_eventually(fn () => min(array_map('count', $heartbeats())) === 1, 5.0 * rt_time_scale() * rt_load_scale());
posix_kill($head, SIGSTOP);
$kept = 0;
foreach (rt_ports() as $i => $port) {
    $kept += (int) rt_redis($port, 'PEXPIRE', $heartbeats()[$i][0] ?? 'none', (string) (int) (20000 * rt_time_scale()));
}
echo 'heartbeat kept alive on ', $kept, " servers\n";
var_dump($holder->unlock($one));
$newcomer = $late->lockSemaphore($key, 2, 10000); // a slot is free, the live head is owed it: queued behind, gives up
echo 'newcomer while the head lives: ', is_array($newcomer) ? 'got it' : 'no', "\n";
posix_kill($head, SIGCONT);
pcntl_waitpid($head, $status);
echo 'log: ', implode(' ', array_map(fn ($e) => $e[0] . ':' . $e[1], fr_log($log))), "\n";
var_dump($holder->unlock($two));
echo 'after: left ', json_encode(fr_sem_leftovers($key)), "\n";
@unlink($log);
?>
--EXPECT--
holders: two slots, waiters 0
queued: 4, lock() queue: 0
bool(true)
first: a:got, waiters 3
bool(true)
order: a:got b:got c:got d:got
after: waiters 0, left [0,0,0,0,0], held false
heartbeat kept alive on 5 servers
bool(true)
newcomer while the head lives: no
log: head:got
bool(true)
after: left [0,0,0,0,0]
