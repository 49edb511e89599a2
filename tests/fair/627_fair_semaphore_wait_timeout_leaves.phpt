--TEST--
fair waiting with lockSemaphore(): a waiter whose waitTimeout runs out leaves the semaphore's queue on every server at once (its heartbeat key too), and the waiter behind it, now the head, is handed the freed slot
--EXTENSIONS--
redlock
pcntl
posix
--FILE--
<?php
require __DIR__ . '/../inc/fair.inc';
$key = rt_key();
$log = sys_get_temp_dir() . '/redlock-627-' . getmypid();
@unlink($log);
$holder = fr_object();
$ttl = (int) (10000 * rt_time_scale()); // held through both parts, also under valgrind
$one = $holder->lockSemaphore($key, 2, $ttl);
$two = $holder->lockSemaphore($key, 2, $ttl);

// alone: it gives up while both slots are held, and its place is gone from every server
$quitter = fr_sem_spawn($key, 2, 'quitter', $log, 600);
pcntl_waitpid($quitter, $status);
echo 'log: ', implode(' ', array_map(fn ($e) => $e[0] . ':' . $e[1], fr_log($log))), "\n";
echo 'queue emptied at once: ', var_export(rt_eventually(fn () => fr_sem_leftovers($key) === [0, 0, 0, 0, 0], 0.5 * rt_time_scale() * rt_load_scale()), true),
    ' ', json_encode(fr_sem_leftovers($key)), "\n";

// ahead of another waiter: it gives up, the other one is the head, a freed slot is handed to it
@unlink($log);
$quitter = fr_sem_spawn($key, 2, 'quitter', $log, (int) (900 * rt_time_scale()));
fr_sem_until_waiters($holder, $key, 2, 1);
$patient = fr_sem_spawn($key, 2, 'patient', $log, (int) (8000 * rt_time_scale()));
fr_sem_until_waiters($holder, $key, 2, 2);
pcntl_waitpid($quitter, $status);
echo 'waiters after the quitter left: ', fr_sem_waiters($holder, $key, 2), "\n";
var_dump($holder->unlock($one));
pcntl_waitpid($patient, $status);
echo 'log: ', implode(' ', array_map(fn ($e) => $e[0] . ':' . $e[1], fr_log($log))), "\n";
var_dump($holder->unlock($two));
echo 'after: waiters ', fr_sem_waiters($holder, $key, 2), ', left ', json_encode(fr_sem_leftovers($key)), "\n";
@unlink($log);
?>
--EXPECT--
log: quitter:none
queue emptied at once: true [0,0,0,0,0]
waiters after the quitter left: 1
bool(true)
log: quitter:none patient:got
bool(true)
after: waiters 0, left [0,0,0,0,0]
