--TEST--
Network: freeing an object whose pooled connections still owe replies to stuck or slow servers is quick
--EXTENSIONS--
redlock
pcntl
--INI--
redlock.persistent=1
--FILE--
<?php
/* unlock() returns once a quorum released; the other servers' replies are still owed when the
 * object is freed. Freeing it must not wait for them one server after the other: it must take
 * under 10 ms in total (times fp_time_scale() under valgrind). Case 1: 2 of 5 servers stuck
 * (the proxy turns their open connections into blackholes after the lock); case 2: 1 of 3
 * servers answering 15 ms late. */
require __DIR__ . '/../inc/faultproxy.inc';
fp_alarm(8);
$bound = 10 * fp_time_scale();

function teardown_case(string $label, int $total, int $behind, string $rules): void
{
    global $bound;
    $servers = [];
    for ($i = 0; $i < $total; $i++) {
        $servers[] = fp_spawn_server()['port'];
    }
    $proxy = fp_start(array_slice($servers, 0, $behind));
    $list = [];
    foreach ($servers as $i => $port) {
        $list[] = ['127.0.0.1', $proxy['listen'][$port] ?? $port, 1.0];
    }
    $redlock = new RedLock($list, 10, 1);
    $lock = $redlock->lock(rt_key($label), 10000);
    $valid = $redlock->validity($lock);   /* waits for every server: nothing owed before the fault */
    foreach (array_slice($servers, 0, $behind) as $port) {
        fp_set($proxy, $port, 'open', $rules);
    }
    $released = $redlock->unlock($lock);
    echo "$label: locked ", var_export(is_array($lock) && $valid > 0, true), ", unlocked ", var_export($released, true);
    [, $ms] = rt_timed(function () use (&$redlock) {
        $redlock = null;
    });
    echo ", freed ", $ms < $bound ? 'in under 10 ms' : sprintf('in %.1f ms', $ms), "\n";
}

teardown_case('2 of 5 stuck', 5, 2, 'mode=blackhole');
teardown_case('1 of 3 answering 15 ms late', 3, 1, 'delay_s2c=15');
?>
--EXPECT--
2 of 5 stuck: locked true, unlocked true, freed in under 10 ms
1 of 3 answering 15 ms late: locked true, unlocked true, freed in under 10 ms
