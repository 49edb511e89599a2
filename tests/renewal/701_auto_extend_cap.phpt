--TEST--
autoExtend with maxExtensions 2: exactly two renewals reach the server, then the lock is left to expire and another client gets it; nothing more is sent while it waits
--EXTENSIONS--
redlock
--FILE--
<?php
require __DIR__ . '/../inc/watch.inc';
[$servers, $spawned] = wt_private_servers(1);
$port = $spawned[0]['port'];
$key = rt_key();
$r = new RedLock($servers, 10, 0, ['autoExtend' => true, 'maxExtensions' => 2]);
$other = new RedLock($servers, 10, 0);
// Every script is an EVAL; a renewal is the one that runs PEXPIRE (other's lock() is SET PX,
// its rollbacks and our unlock() DEL): so PEXPIRE counts renewals that were granted.
$before = wt_calls($port, 'pexpire');
/* 1500 ms, renewed every 500 ms: a renewal thread that waits more than 1 s for a core loses the lock after one
 * renewal. On a machine busier than its cores the ttl, and the idle watch below (two renewal periods), scale with
 * its load per core (rt_load_scale(), 1 otherwise: the test as it was). */
$scale = rt_load_scale();
$ttl = (int) (1500 * $scale);
$lock = $r->lock($key, $ttl);
var_dump(is_array($lock));
// Without renewals it would expire after one ttl; it expires in the end anyway (the cap), after three.
$taken = false;
wt_until(function () use ($other, $key, &$taken) {
    return (bool) ($taken = $other->lock($key, 60000));
}, 20 * $scale, 'the capped lock expiring');
echo 'renewals granted before it expired: ', wt_calls($port, 'pexpire') - $before, "\n";
$evals = wt_calls($port, 'eval');
usleep((int) (1000000 * $scale)); // the thread stays idle for two renewal periods: no third renewal, not even a refused one
echo 'scripts sent while idle: ', wt_calls($port, 'eval') - $evals, "\n";
var_dump($r->validity($lock)); // expired: false (a round trip: the lock was capped, not lost)
var_dump($r->unlock($lock));   // not ours any more
var_dump(rt_redis($port, 'GET', $key) === $taken['token']);
?>
--EXPECT--
bool(true)
renewals granted before it expired: 2
scripts sent while idle: 0
bool(false)
bool(false)
bool(true)
