--TEST--
Fault: partial availability: 1 of 1, 2 of 3, 3 of 5 live succeed; 1 of 3 and 2 of 5 live fail, and leave nothing held
--EXTENSIONS--
redlock
--FILE--
<?php
require __DIR__ . '/../inc/reliability.inc';
$live = rt_ports();
$down = fn () => rt_free_port();

function attempt(string $label, array $ports, int $liveCount): void
{
    /* Bounds on round trips scale with the load per core (rt_load_scale(): 1 on a machine no busier than its cores, where
     * the test is as it was, up to 5), and so do the timeouts they are set against: a call that waits for one still
     * takes longer than its bound at every scale. */
    $s = rt_load_scale();
    $key = rt_key($label);
    $redlock = new RedLock(rf_list($ports, 5.0 * $s), 10, 1);
    [$lock, $ms] = rt_timed(fn () => $redlock->lock($key, 10000));
    $held = array_map(fn ($p) => rt_redis($p, 'GET', $key), array_slice($ports, 0, $liveCount));
    if ($lock === false) {
        /* give the pipelined release a moment, then nothing may remain on the live servers */
        usleep(50000);
        $held = array_map(fn ($p) => rt_redis($p, 'GET', $key), array_slice($ports, 0, $liveCount));
        printf("%s: false, left held on %d live server(s), %s\n", $label, count(array_filter($held)),
            $ms < 2000 * $s ? 'quick' : "slow ({$ms} ms)");
        return;
    }
    /* the call returns at quorum: a last live server may still be applying its SET */
    $quorum = intdiv(count($ports), 2) + 1;
    printf("%s: locked, token on a quorum of the live: %s, ", $label,
        var_export(count(array_filter($held, fn ($v) => $v === $lock['token'])) >= $quorum, true));
    printf("unlock %s, %s\n", var_export($redlock->unlock($lock), true), $ms < 2000 * $s ? 'quick' : "slow ({$ms} ms)");
}

attempt('1 of 1', [$live[0]], 1);
attempt('2 of 3', [$live[0], $live[1], $down()], 2);
attempt('1 of 3', [$live[0], $down(), $down()], 1);
attempt('3 of 5', [$live[0], $live[1], $live[2], $down(), $down()], 3);
attempt('2 of 5', [$live[0], $live[1], $down(), $down(), $down()], 2);
attempt('4 of 5', [$live[0], $live[1], $live[2], $live[3], $down()], 4);
?>
--EXPECT--
1 of 1: locked, token on a quorum of the live: true, unlock true, quick
2 of 3: locked, token on a quorum of the live: true, unlock true, quick
1 of 3: false, left held on 0 live server(s), quick
3 of 5: locked, token on a quorum of the live: true, unlock true, quick
2 of 5: false, left held on 0 live server(s), quick
4 of 5: locked, token on a quorum of the live: true, unlock true, quick
