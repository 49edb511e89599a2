--TEST--
Fault: a server whose replies arrive after the quorum was decided, with its script cache flushed: unlock() and extend() still act on it (every script is an EVAL, so no NOSCRIPT can be left unanswered); the key is gone there, or extended there, too
--EXTENSIONS--
redlock
pcntl
--FILE--
<?php
/* Server A sits behind the fault proxy; its requests reach it 300 ms late, long after B and C
 * settled the call. Before every step the script cache of all three is flushed (a restart, a
 * failover, SCRIPT FLUSH by an operator). With EVALSHA, A answered NOSCRIPT after the call had
 * returned, nobody resent the script, and A kept our key for its whole ttl: unlock() said true
 * while the lock lived on there, extend() said true while A's key expired on time. */
require __DIR__ . '/../inc/faultproxy.inc';
fp_alarm(20);
$s = fp_time_scale();
$a = fp_spawn_server();
$b = fp_spawn_server();
$c = fp_spawn_server();
$proxy = fp_start([$a['port']]);
$ports = [$a['port'], $b['port'], $c['port']];
$r = new RedLock([['127.0.0.1', $proxy['listen'][$a['port']], 1.0 * $s],
    ['127.0.0.1', $b['port'], 1.0 * $s], ['127.0.0.1', $c['port'], 1.0 * $s]], 10, 0);
$flush = function () use ($ports) {
    foreach ($ports as $p) {
        rf_cmd($p, 'SCRIPT', 'FLUSH');
    }
};
$delay = (int) (300 * $s);
$settle = function () use ($delay) {
    usleep(($delay + 400) * 1000);
};

echo "extend()\n";
$key = rt_key('extend');
$lock = $r->lock($key, (int) (3000 * $s)); // A answers after $delay: the key must live until then
/* lock() returned with B and C: A's SET, through the proxy, may still be on its way */
for ($i = 0; $i < 100 && rf_cmd($a['port'], 'GET', $key) !== $lock['token']; $i++) {
    usleep(10000);
}
echo "locked on A: ", var_export(rf_cmd($a['port'], 'GET', $key) === $lock['token'], true), "\n";
$flush();
fp_set($proxy, $a['port'], 'all', "delay_c2s=$delay");
$t = microtime(true);
$extended = $r->extend($lock, 60000);
echo "extend: ", var_export(is_array($extended), true), ", returned before A's reply: ",
    var_export(microtime(true) - $t < $delay / 1000, true), "\n";
$settle();
echo "A's key extended too: ", var_export(rf_cmd($a['port'], 'PTTL', $key) > 30000, true), "\n";

echo "unlock()\n";
$flush();
$t = microtime(true);
echo "unlock: ", var_export($r->unlock($extended), true), ", returned before A's reply: ",
    var_export(microtime(true) - $t < $delay / 1000, true), "\n";
$settle();
echo "keys left: ", implode(',', array_map(fn ($p) => var_export(rf_cmd($p, 'EXISTS', $key), true), $ports)), "\n";

echo "multi-resource unlock()\n";
fp_set($proxy, $a['port'], 'all', 'delay_c2s=0');
$keys = [rt_key('m1'), rt_key('m2')];
$multi = $r->lock($keys, 60000);
echo "locked: ", var_export(is_array($multi), true), "\n";
$flush();
fp_set($proxy, $a['port'], 'all', "delay_c2s=$delay");
echo "unlock: ", var_export($r->unlock($multi), true), "\n";
$settle();
echo "keys left: ", implode(',', array_map(fn ($p) => var_export(rf_cmd($p, 'EXISTS', ...$keys), true), $ports)), "\n";
?>
--EXPECT--
extend()
locked on A: true
extend: true, returned before A's reply: true
A's key extended too: true
unlock()
unlock: true, returned before A's reply: true
keys left: 0,0,0
multi-resource unlock()
locked: true
unlock: true
keys left: 0,0,0
