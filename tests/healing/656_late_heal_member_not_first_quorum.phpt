--TEST--
A member whose yes no longer counts (its heal never known landed: our connection to it broke after the heal, and a reply on a new stream shows nothing) does not make extend() or validity() answer false while the other members hold a quorum: member A lost our key, extend 1 heals it, our connections to A are killed, and past extend 1's promise A's yes (the first to come) is not counted; B's and C's (C behind the fault proxy, its replies later) are. The round trip must await them rather than stop at the first quorum of answers (A and B), one of which does not count
--EXTENSIONS--
redlock
pcntl
--FILE--
<?php
require __DIR__ . '/../inc/faultproxy.inc';
fp_alarm(60);
$scale = min(3.0, fp_time_scale()) * rt_load_scale();
$long = (int) (30000 * $scale);  /* the keys' ttl, beyond anything this test waits for */
$short = (int) (1000 * $scale);  /* extend 1's ttl: its promise ends within it */
$delay = (int) (150 * $scale);   /* C's requests, later than A's and B's answers */
$a = fp_spawn_server();
$b = fp_spawn_server();
$c = fp_spawn_server();
$proxy = fp_start([$c['port']]);
$bound = min(60.0, 3.0 * $long / 1000);
$servers = [['127.0.0.1', $a['port'], $bound], ['127.0.0.1', $b['port'], $bound],
    ['127.0.0.1', $proxy['listen'][$c['port']], $bound]];
$key = rt_key('late-heal-first-quorum');
$r = new RedLock($servers, 0, 0); /* no lease: the heals are kept in the object's registry */
$lock = $r->lock($key, $long);
$all = fn () => rf_cmd($a['port'], 'GET', $key) === $lock['token'] && rf_cmd($b['port'], 'GET', $key) === $lock['token']
    && rf_cmd($c['port'], 'GET', $key) === $lock['token'];
echo 'locked on A, B and C: ', var_export(is_array($lock) && rt_eventually($all, 5.0 * $scale), true), "\n";
rf_cmd($a['port'], 'DEL', $key); /* as a restart without persistence */
fp_set($proxy, $c['port'], 'all', "delay_c2s=$delay");

$t1 = microtime(true);
$first = $r->extend($lock, $short); /* A's "not ours" comes before C's yes, which the quorum waits for */
echo 'extend 1: ', var_export(is_array($first), true), "\n";
echo 'A healed: ', var_export(rt_eventually(fn () => rf_cmd($a['port'], 'GET', $key) === $lock['token'], 5.0 * $scale), true), "\n";
echo 'our connections to A killed: ', var_export(rf_cmd($a['port'], 'CLIENT', 'KILL', 'TYPE', 'normal') >= 1, true), "\n";
/* a new connection to A; its answers show nothing of the heal. Our key lengthened there (setup). */
echo 'A answers again on a new connection: ', var_export(rt_eventually(fn () => is_array($r->extend($lock, $long))
    && rf_cmd($a['port'], 'PTTL', $key) > $short, 5.0 * $scale), true), "\n";
while (microtime(true) < $t1 + 1.5 * $short / 1000) { /* past extend 1's promise: a lower bound, no race */
    usleep(20000);
}
echo 'A, B and C hold our key: ', var_export($all(), true), "\n";
echo 'extend 3 (B and C hold a quorum): ', var_export(is_array($r->extend($lock, $long)), true), "\n";
echo 'extend 4: ', var_export(is_array($r->extend($lock, $long)), true), "\n";
echo 'validity(): ', var_export($r->validity($lock) > 0, true), "\n";
echo 'unlock: ', var_export($r->unlock($lock), true), "\n";

/* The same under autoExtend, two leases (renewed in one batch while nothing is recorded): the renewal thread
 * heals A for the first, its connections are killed, and past that renewal's promise the lease must live on. */
$ttl = (int) (1500 * $scale);
$auto = new RedLock($servers, 0, 0, ['autoExtend' => true]);
$held = [$auto->lock($key, $ttl), $auto->lock("$key:other", $ttl)];
$onA = fn () => rf_cmd($a['port'], 'GET', $key) === $held[0]['token'];
echo 'autoExtend: locked on A: ', var_export(is_array($held[0]) && is_array($held[1]) && rt_eventually($onA, 5.0 * $scale), true), "\n";
rf_cmd($a['port'], 'DEL', $key);
echo 'autoExtend: the renewal healed A: ', var_export(rt_eventually($onA, 5.0 * $scale), true), "\n";
$healed = microtime(true);
echo 'autoExtend: our connections to A killed: ', var_export(rf_cmd($a['port'], 'CLIENT', 'KILL', 'TYPE', 'normal') >= 1, true), "\n";
while (microtime(true) < $healed + 3.0 * $ttl / 1000) { /* past that renewal's promise, many renewals since */
    usleep(20000);
}
echo 'autoExtend: A, B and C hold our key: ', var_export($onA() && rf_cmd($b['port'], 'GET', $key) === $held[0]['token']
    && rf_cmd($c['port'], 'GET', $key) === $held[0]['token'], true), "\n";
echo 'autoExtend: validity(): ', var_export($auto->validity($held[0]) > 0, true), "\n";
fp_ctl($proxy, 'CLEAR');
echo 'autoExtend: unlock: ', var_export($auto->unlock($held[0]) && $auto->unlock($held[1]), true), "\n";
?>
--EXPECT--
locked on A, B and C: true
extend 1: true
A healed: true
our connections to A killed: true
A answers again on a new connection: true
A, B and C hold our key: true
extend 3 (B and C hold a quorum): true
extend 4: true
validity(): true
unlock: true
autoExtend: locked on A: true
autoExtend: the renewal healed A: true
autoExtend: our connections to A killed: true
autoExtend: A, B and C hold our key: true
autoExtend: validity(): true
autoExtend: unlock: true
