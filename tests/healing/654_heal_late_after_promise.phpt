--TEST--
A heal that lands after the promise of the extend that sent it gives no vote: member A lost our key, the first extend() heals it, A's connection holds the heal back (the fault proxy delays our requests to A by 0.7 ttl); meanwhile B's key goes (as a fast clock would end it) and a rival takes A and B and unlocks; then the heal lands on A and the second extend()'s request behind it finds our key there. That yes came after the first extend's promise ended, so it is not counted: the second extend() answers false, not true across the rival's hold (the model's counterexample 2, verify/chaos/model/README.md)
--EXTENSIONS--
redlock
pcntl
--FILE--
<?php
/* Timeline (T = ttl, D = 0.7 T, the delay of our requests to A):
 *   0      extend 1 asks; A's "not ours" comes at D (awaited: A is known to lack our key)
 *   D      extend 1 answers (validity 0.3 T less drift, so its promise ends by T) and heals: to A, lands at 2 D
 *   D..2D  B's key deleted, the rival locks A and B, unlocks (A still empty: the heal is held back)
 *   D      extend 2 asks; B: not ours, C: yes; A: the heal lands, then extend 2's request: yes, at 2 D = 1.4 T
 * Before the rule extend 2 counted A and C and answered true (promise T - D - drift from its start). */
require __DIR__ . '/../inc/faultproxy.inc';
fp_alarm(60);
/* the proxy lives 120 s: under valgrind the ttl grows 3 times, not 10 (between the extends only a lock and an
 * unlock run, well within 0.7 ttl) */
$ttl = (int) (1000 * min(3.0, fp_time_scale()) * rt_load_scale());
$delay = (int) (0.7 * $ttl);
$a = fp_spawn_server();
$b = fp_spawn_server();
$c = fp_spawn_server();
$proxy = fp_start([$a['port']]);
$bound = min(60.0, 3.0 * $ttl / 1000); /* the servers' timeout (60 s at most): the extends' deadline is their ttl */
$servers = [['127.0.0.1', $proxy['listen'][$a['port']], $bound], ['127.0.0.1', $b['port'], $bound],
    ['127.0.0.1', $c['port'], $bound]];
/* $lose makes A lose our key in a way the extend must await A for, then delays our requests to A by D. */
$scenario = function (string $name, array $options, callable $lose) use ($servers, $a, $b, $c, $bound, $ttl, $delay, $proxy) {
    echo "-- $name\n";
    $key = rt_key($name);
    $r = new RedLock($servers, 0, 0, $options);
    $lock = $lose($r, $key);
    $t0 = microtime(true);
    $first = $r->extend($lock, $ttl);
    $t1 = microtime(true);
    echo 'extend 1: ', var_export(is_array($first), true), "\n";
    echo 'extend 1 awaited A: ', var_export(($t1 - $t0) * 1000 >= 0.9 * $delay, true), "\n";

    rf_cmd($b['port'], 'DEL', $key);
    $rival = new RedLock([['127.0.0.1', $a['port'], $bound], ['127.0.0.1', $b['port'], $bound],
        ['127.0.0.1', $c['port'], $bound]], 0, 0);
    $taken = $rival->lock($key, $ttl);
    echo 'the rival took A and B: ', var_export(is_array($taken), true), "\n";
    echo 'the rival released: ', var_export(is_array($taken) && $rival->unlock($taken), true), "\n";

    $t2 = microtime(true);
    $second = $r->extend($lock, $ttl);
    /* A's yes to extend 2 left our side at t2 and reached A D later: after extend 1's promise (t0 + T at most) */
    echo 'A answered extend 2 after extend 1\'s promise: ', var_export(($t2 - $t0) * 1000 + $delay > $ttl, true), "\n";
    echo 'the heal landed on A after the rival\'s release: ', var_export(rf_cmd($a['port'], 'GET', $key) === $lock['token'], true), "\n";
    echo 'extend 2 (a rival held the lock in between): ', var_export($second, true), "\n";
    fp_ctl($proxy, 'CLEAR');
};

/* A tracked lock (maxExtensions) whose lock() could not reach A (the proxy refused it): every extend awaits A
 * (docs/design/renewal.md#which-members-an-extend-awaits), which never had our key. */
$scenario('tracked', ['maxExtensions' => 100], function (RedLock $r, string $key) use ($a, $ttl, $delay, $proxy) {
    fp_set($proxy, $a['port'], 'all', 'mode=refuse');
    $lock = $r->lock($key, $ttl);
    echo 'locked on B and C: ', var_export(is_array($lock) && rf_cmd($a['port'], 'EXISTS', $key) === 0, true), "\n";
    fp_set($proxy, $a['port'], 'all', "delay_c2s=$delay");
    return $lock;
});

/* A lock no lease tracks: A loses our key as a restart does, its connection closed (reset by the proxy),
 * so the next extend opens another and awaits A (a restart seen). */
$scenario('untracked', [], function (RedLock $r, string $key) use ($a, $ttl, $delay, $proxy) {
    $lock = $r->lock($key, $ttl);
    $onA = is_array($lock) && rt_eventually(fn () => rf_cmd($a['port'], 'GET', $key) === $lock['token'], 5.0 * fp_time_scale());
    echo 'locked on A, B and C: ', var_export($onA, true), "\n";
    rf_cmd($a['port'], 'DEL', $key);
    fp_set($proxy, $a['port'], 'next', "delay_c2s=$delay");
    fp_set($proxy, $a['port'], 'open', 'mode=rst');
    return $lock;
});
?>
--EXPECT--
-- tracked
locked on B and C: true
extend 1: true
extend 1 awaited A: true
the rival took A and B: true
the rival released: true
A answered extend 2 after extend 1's promise: true
the heal landed on A after the rival's release: true
extend 2 (a rival held the lock in between): false
-- untracked
locked on A, B and C: true
extend 1: true
extend 1 awaited A: true
the rival took A and B: true
the rival released: true
A answered extend 2 after extend 1's promise: true
the heal landed on A after the rival's release: true
extend 2 (a rival held the lock in between): false
