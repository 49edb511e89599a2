--TEST--
One server of 3 with nothing listening: lock and unlock still succeed, quickly, without a warning
--EXTENSIONS--
redlock
--FILE--
<?php
require __DIR__ . '/../inc/redlock_test.inc';
$key = rt_key();
/* Bounds on round trips scale with the load per core (rt_load_scale(): 1 on a machine no busier than its cores, where
 * the test is as it was, up to 5), and so do the timeouts they are set against: a call that waits for one still
 * takes longer than its bound at every scale. */
$s = rt_load_scale();
$live = rt_servers(2, 3.0);
$dead = ['127.0.0.1', rt_free_port(), 3.0 * $s]; // a refused connect must not cost the 3 s timeout

foreach ([[$dead, $live[0], $live[1]], [$live[0], $dead, $live[1]], [$live[0], $live[1], $dead]] as $n => $servers) {
    $redlock = new RedLock($servers, 10, 1);
    [$lock, $ms] = rt_timed(fn () => $redlock->lock($key, 10000));
    echo "order $n: ", is_array($lock) ? 'locked' : 'refused', ", under 1500 ms: ", var_export($ms < 1500 * $s, true), "\n";
    var_dump(rt_eventually(fn () => rt_values($key, 2) === [$lock['token'], $lock['token']]));
    [$released, $ms] = rt_timed(fn () => $redlock->unlock($lock));
    echo "unlock: ", var_export($released, true), ", under 1500 ms: ", var_export($ms < 1500 * $s, true), "\n";
    var_dump(rt_eventually(fn () => rt_values($key, 2) === [null, null]));
}
?>
--EXPECT--
order 0: locked, under 1500 ms: true
bool(true)
unlock: true, under 1500 ms: true
bool(true)
order 1: locked, under 1500 ms: true
bool(true)
unlock: true, under 1500 ms: true
bool(true)
order 2: locked, under 1500 ms: true
bool(true)
unlock: true, under 1500 ms: true
bool(true)
