--TEST--
validity() of a lock no lease tracks after a heal that landed late agrees with extend(): member A lost our key, the first extend() heals it, A's connection holds the heal back past that extend's promise while a rival takes A and B and unlocks; the heal lands, and the second extend() rightly answers false (healing/654). A and C now both hold our key (their keys lengthened here so that time is not the question), yet A's key is there only by the late heal: validity() must not count it either, and so answers false (lost), as extend() does, rather than a positive validity across the rival's hold
--EXTENSIONS--
redlock
pcntl
--FILE--
<?php
require __DIR__ . '/../inc/faultproxy.inc';
fp_alarm(60);
$ttl = (int) (1000 * min(3.0, fp_time_scale()) * rt_load_scale());
$delay = (int) (0.7 * $ttl);
$a = fp_spawn_server();
$b = fp_spawn_server();
$c = fp_spawn_server();
$proxy = fp_start([$a['port']]);
$bound = min(60.0, 3.0 * $ttl / 1000);
$servers = [['127.0.0.1', $proxy['listen'][$a['port']], $bound], ['127.0.0.1', $b['port'], $bound],
    ['127.0.0.1', $c['port'], $bound]];
$key = rt_key('validity-late-heal');
$r = new RedLock($servers, 0, 0); /* no lease: the heals are kept in the object's registry */
$lock = $r->lock($key, $ttl);
$onA = is_array($lock) && rt_eventually(fn () => rf_cmd($a['port'], 'GET', $key) === $lock['token'], 5.0 * fp_time_scale());
echo 'locked on A, B and C: ', var_export($onA, true), "\n";
rf_cmd($a['port'], 'DEL', $key); /* as a restart without persistence */
fp_set($proxy, $a['port'], 'next', "delay_c2s=$delay");
fp_set($proxy, $a['port'], 'open', 'mode=rst');

echo 'extend 1 (heals A, held back): ', var_export(is_array($r->extend($lock, $ttl)), true), "\n";
rf_cmd($b['port'], 'DEL', $key);
$rival = new RedLock([['127.0.0.1', $a['port'], $bound], ['127.0.0.1', $b['port'], $bound],
    ['127.0.0.1', $c['port'], $bound]], 0, 0);
$taken = $rival->lock($key, $ttl);
echo 'the rival took A and B and released: ', var_export(is_array($taken) && $rival->unlock($taken), true), "\n";
echo 'extend 2: ', var_export($r->extend($lock, $ttl), true), "\n";
echo 'the heal landed on A: ', var_export(rf_cmd($a['port'], 'GET', $key) === $lock['token'], true), "\n";
fp_ctl($proxy, 'CLEAR');

/* A (by the late heal) and C hold our key, long enough for any round trip here */
foreach ([$a, $c] as $s) {
    rf_cmd($s['port'], 'PEXPIRE', $key, 20 * $ttl);
}
echo 'A and C hold our key: ', var_export(rf_cmd($a['port'], 'GET', $key) === $lock['token']
    && rf_cmd($c['port'], 'GET', $key) === $lock['token'], true), "\n";
echo 'validity(): ', var_export($r->validity($lock), true), "\n";
echo 'extend 3: ', var_export($r->extend($lock, $ttl), true), "\n";
echo 'validity() again: ', var_export($r->validity($lock), true), "\n";
?>
--EXPECT--
locked on A, B and C: true
extend 1 (heals A, held back): true
the rival took A and B and released: true
extend 2: false
the heal landed on A: true
A and C hold our key: true
validity(): false
extend 3: false
validity() again: false
