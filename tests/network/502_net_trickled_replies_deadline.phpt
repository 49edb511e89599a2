--TEST--
Network: on a fresh connection owing several replies (AUTH, SELECT, script loads), replies that trickle in do not restart the server's timeout
--EXTENSIONS--
redlock
pcntl
--FILE--
<?php
/* A password server in database 3 behind a proxy that delivers the server's answers one RESP
 * line at a time, 40 ms apart: each reply comes well within the 100 ms timeout, all of them
 * together do not. The timeout runs from the call's first byte to that server, so the call
 * ends within ~100 ms; restarting it at every reply makes it wait for all of them (~0.5 s). */
require __DIR__ . '/../inc/faultproxy.inc';
fp_alarm(8);
$bound = 100 + 150 * fp_time_scale();
$a = fp_spawn_server(['--requirepass', 's3cret']);
$proxy = fp_start([$a['port']]);
$server = ['host' => '127.0.0.1', 'port' => $proxy['listen'][$a['port']], 'password' => 's3cret',
    'database' => 3, 'timeout' => 0.1];
$key = rt_key();

foreach (['unlock' => fn ($r) => $r->unlock(['resource' => $key, 'token' => 'not-ours']),
    'lock' => fn ($r) => $r->lock($key, 10000)] as $name => $call) {
    fp_set($proxy, $a['port'], 'next', 'pace_s2c=40 lines=1');
    $redlock = new RedLock([$server], 10, 1, ['persistent' => false]);
    [$result, $ms] = rt_timed(fn () => $call($redlock));
    echo "$name on a trickling fresh connection: ", var_export(is_array($result) ? 'a lock' : $result, true), ", ",
        $ms <= $bound ? 'within' : sprintf('NOT within (%.0f ms)', $ms), " 100 ms + slack, error: ",
        /* the server's timeout and the call's (the same 100 ms) end together: either one may be named */
        var_export(preg_replace('/^timeout: the call\'s deadline passed$/', 'timeout', (string) $redlock->getLastErrors()[0]), true), "\n";
    $redlock = null;
}

echo "the same server without trickling locks, in database 3, and unlocks: ";
$plain = rt_key('plain');
$redlock = new RedLock([$server], 10, 1, ['persistent' => false]);
$lock = $redlock->lock($plain, 10000);
rt_redis($a['port'], 'AUTH', 's3cret');
rt_redis($a['port'], 'SELECT', '3');
var_dump(is_array($lock) && rt_redis($a['port'], 'GET', $plain) === $lock['token'] && $redlock->unlock($lock));
?>
--EXPECT--
unlock on a trickling fresh connection: false, within 100 ms + slack, error: 'timeout'
lock on a trickling fresh connection: false, within 100 ms + slack, error: 'timeout'
the same server without trickling locks, in database 3, and unlocks: bool(true)
