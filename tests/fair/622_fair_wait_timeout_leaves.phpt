--TEST--
fair waiting: a waiter whose waitTimeout runs out leaves the queue on every server at once (not only when its heartbeat lapses: nobody would remove it then), and the waiter behind it, now the head, is handed the lock by the release
--EXTENSIONS--
redlock
pcntl
posix
--FILE--
<?php
require __DIR__ . '/../inc/fair.inc';
$key = rt_key();
$log = sys_get_temp_dir() . '/redlock-612-' . getmypid();
@unlink($log);
$holder = fr_object();
$lock = $holder->lock($key, (int) (10000 * rt_time_scale())); // held through both parts, also under valgrind

// alone: it gives up while the lock is held, and its place is gone from every server
$quitter = fr_spawn($key, 'quitter', $log, 600);
pcntl_waitpid($quitter, $status);
echo 'log: ', implode(' ', array_map(fn ($e) => $e[0] . ':' . $e[1], fr_log($log))), "\n";
echo 'queue emptied at once: ', var_export(rt_eventually(fn () => fr_queue_lengths($key) === [0, 0, 0, 0, 0], 0.5 * rt_time_scale() * rt_load_scale()), true),
    ' ', json_encode(fr_queue_lengths($key)), "\n";

// ahead of another waiter: it gives up, the other one is the head, the release hands it the lock
@unlink($log);
// long enough for the second one to be queued behind it (a process started under valgrind takes seconds)
$quitter = fr_spawn($key, 'quitter', $log, (int) (900 * rt_time_scale()));
fr_until_waiters($holder, $key, 1);
$patient = fr_spawn($key, 'patient', $log, (int) (8000 * rt_time_scale())); // outlasts the quitter
fr_until_waiters($holder, $key, 2);
pcntl_waitpid($quitter, $status);
echo 'waiters after the quitter left: ', fr_waiters($holder, $key), "\n";
[$released, $ms] = rt_timed(fn () => $holder->unlock($lock));
pcntl_waitpid($patient, $status);
echo 'log: ', implode(' ', array_map(fn ($e) => $e[0] . ':' . $e[1], fr_log($log))), "\n";
echo 'after: waiters ', fr_waiters($holder, $key), ', queues ', json_encode(fr_queue_lengths($key)), "\n";
@unlink($log);
?>
--EXPECT--
log: quitter:none
queue emptied at once: true [0,0,0,0,0]
waiters after the quitter left: 1
log: quitter:none patient:got
after: waiters 0, queues [0,0,0,0,0]
