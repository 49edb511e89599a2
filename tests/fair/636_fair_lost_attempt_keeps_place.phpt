--TEST--
fair waiting: a queued waiter whose attempt is won on a minority of servers (the lock held elsewhere) and so lost keeps its place on every server, its heartbeat too; before, the lock script took a winner off the queue where it won, so a lost attempt left it off there until its next attempt, and a waiter behind it could pass it in that window (found by the simulation's FIFO check, verify/sim)
--EXTENSIONS--
redlock
pcntl
posix
--FILE--
<?php
require __DIR__ . '/../inc/fair.inc';
$key = rt_key();
$log = sys_get_temp_dir() . '/redlock-636-' . getmypid();
@unlink($log);
$ports = rt_ports();
// held by somebody else on 3 of the 5 servers: the waiter's attempts win the other 2, a minority, and are rolled back
foreach ([1, 2, 3] as $i) {
    rt_redis($ports[$i], 'SET', $key, 'other', 'PX', (string) (int) (20000 * rt_time_scale()));
}
$waiter = fr_spawn($key, 'waiter', $log, (int) (15000 * rt_time_scale()));
$heartbeats = fn () => array_map(fn ($p) => count(rt_redis($p, 'KEYS', "$key:fair:w:*")), $ports);
$queued = rt_eventually(fn () => array_slice(fr_queue_lengths($key), 1, 3) === [1, 1, 1], 5.0 * rt_time_scale() * rt_load_scale());
usleep((int) (600000 * rt_time_scale())); // several of its attempts, each won on servers 0 and 4, lost, rolled back
echo 'queued on the servers holding the lock: ', var_export($queued, true), "\n";
echo 'queue lengths: ', json_encode(fr_queue_lengths($key)), "\n";
echo 'heartbeats: ', json_encode($heartbeats()), "\n";
foreach ([1, 2, 3] as $i) {
    rt_redis($ports[$i], 'DEL', $key);
}
pcntl_waitpid($waiter, $status);
echo 'log: ', implode(' ', array_map(fn ($e) => $e[0] . ':' . $e[1], fr_log($log))), "\n";
echo 'after: queues ', json_encode(fr_queue_lengths($key)), ' heartbeats ', json_encode($heartbeats()), "\n";
@unlink($log);
?>
--EXPECT--
queued on the servers holding the lock: true
queue lengths: [1,1,1,1,1]
heartbeats: [1,1,1,1,1]
log: waiter:got
after: queues [0,0,0,0,0] heartbeats [0,0,0,0,0]
