--TEST--
fair waiting: a queued waiter whose attempts win only a minority (the holder's key lost on 2 of 5 servers, as a restart without persistence loses it) attempts at its heartbeat's pace, not in a loop: the rollback of its own attempt woke itself (the winner stays queued, so it was the head it woke) and it attempted again at once, about 1500 attempts a second; a fair lock() and a fair lockSemaphore()
--EXTENSIONS--
redlock
--FILE--
<?php
require __DIR__ . '/../inc/fair.inc';
$ports = rt_ports();
$wait = (int) (700 * min(rt_time_scale(), 2.5)); // long enough to be queued under valgrind too; the loop made hundreds of attempts there as well
// every attempt but the first and the last follows a pause of at least RL_FAIR_REFRESH_MS / 2 = 125 ms, or a wake-up
$bound = intdiv($wait, 125) + 2;
$attempts = 0;
$waiter = fr_object($wait, ['observer' => function (array $call) use (&$attempts) { $attempts = $call['attempts']; }]);
$holder = fr_object();

$key = rt_key('lock');
$lock = $holder->lock($key, (int) (10000 * rt_time_scale()));
foreach ([0, 4] as $i) {
    rt_redis($ports[$i], 'DEL', $key); // the holder keeps 3 of 5
}
echo 'lock: ', var_export($waiter->lock($key, 5000), true), ', attempts within ', $bound, ': ',
    var_export($attempts >= 2 && $attempts <= $bound, true), $attempts > $bound ? " ($attempts)" : '', "\n";
$holder->unlock($lock);

$key = rt_key('sem');
$slot = $holder->lockSemaphore($key, 1, (int) (10000 * rt_time_scale()));
foreach ([0, 4] as $i) {
    rt_redis($ports[$i], 'DEL', "$key:slot:0");
}
$attempts = 0;
echo 'lockSemaphore: ', var_export($waiter->lockSemaphore($key, 1, 5000), true), ', attempts within ', $bound, ': ',
    var_export($attempts >= 2 && $attempts <= $bound, true), $attempts > $bound ? " ($attempts)" : '', "\n";
$holder->unlock($slot);
echo 'queues left: ', json_encode(fr_queue_lengths(rt_key('lock'))), ' ', json_encode(fr_sem_leftovers($key)), "\n";
?>
--EXPECTF--
lock: false, attempts within %d: true
lockSemaphore: false, attempts within %d: true
queues left: [0,0,0,0,0] [0,0,0,0,0]
