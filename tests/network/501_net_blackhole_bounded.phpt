--TEST--
Network: a server that accepts and never answers costs each call at most its timeout (1000 ms when the timeout is 0)
--EXTENSIONS--
redlock
pcntl
--FILE--
<?php
/* Server A sits behind a proxy that accepts every connection and never answers (blackhole);
 * B and C are healthy. Every call must return within a bound: the server's timeout when it has
 * one, and the default per-call limit of 1000 ms when its timeout is 0 ("no per-server limit").
 * Slack: 150 ms (300 ms for the 1 s bound), times fp_time_scale() under valgrind. */
require __DIR__ . '/../inc/faultproxy.inc';
fp_alarm(8);
$slack = 150 * fp_time_scale();
$a = fp_spawn_server();
$b = fp_spawn_server();
$c = fp_spawn_server();
$proxy = fp_start([$a['port']]);
fp_set($proxy, $a['port'], 'new', 'mode=blackhole');
$silent = $proxy['listen'][$a['port']];

foreach ([[0.1, 100, $slack], [0, 1000, 2 * $slack]] as [$timeout, $bound, $slackHere]) {
    echo "silent server's timeout $timeout, bound $bound ms:\n";
    $redlock = new RedLock([['127.0.0.1', $silent, $timeout], ['127.0.0.1', $b['port'], 0.1 * fp_time_scale()],
        ['127.0.0.1', $c['port'], 0.1 * fp_time_scale()]], 10, 1);
    $key = rt_key("t$timeout");
    $lock = null;   /* the closures read the latest lock by reference */
    $calls = [
        'lock' => function () use ($redlock, $key) { return $redlock->lock($key, 10000); },
        'validity' => function () use ($redlock, &$lock) { return $redlock->validity($lock); },
        'extend' => function () use ($redlock, &$lock) { return $redlock->extend($lock, 10000); },
        'unlock' => function () use ($redlock, &$lock) { return $redlock->unlock($lock); },
        'validity after unlock' => function () use ($redlock, &$lock) { return $redlock->validity($lock); },
    ];
    foreach ($calls as $name => $call) {
        echo "  $name ... ";   /* shows where a hang happened */
        [$result, $ms] = rt_timed($call);
        if ($name === 'lock' || $name === 'extend') {
            $lock = is_array($result) ? $result : $lock;
            $result = is_array($result);
        } elseif ($name === 'validity') {
            $result = is_float($result) && $result > 0;
        }
        echo var_export($result, true), ", within bound: ", var_export($ms <= $bound + $slackHere, true),
            $ms <= $bound + $slackHere ? '' : sprintf(' (%.0f ms)', $ms), "\n";
    }
    unset($calls);
    [, $ms] = rt_timed(function () use (&$redlock) {
        $redlock = null;
    });
    echo "  free within bound: ", var_export($ms <= $bound + $slackHere, true), "\n";
}
echo "the blackhole saw our connections: ", var_export((bool) preg_match('/acc=[1-9]/', fp_ctl($proxy, 'STATS')), true), "\n";
?>
--EXPECT--
silent server's timeout 0.1, bound 100 ms:
  lock ... true, within bound: true
  validity ... true, within bound: true
  extend ... true, within bound: true
  unlock ... true, within bound: true
  validity after unlock ... false, within bound: true
  free within bound: true
silent server's timeout 0, bound 1000 ms:
  lock ... true, within bound: true
  validity ... true, within bound: true
  extend ... true, within bound: true
  unlock ... true, within bound: true
  validity after unlock ... false, within bound: true
  free within bound: true
the blackhole saw our connections: true
