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
// Renewals are EVALSHA (the scripts are loaded on connect); other's failed attempts roll back with EVAL.
$before = wt_calls($port, 'evalsha');
$lock = $r->lock($key, 1500);
var_dump(is_array($lock));
// Without renewals it would expire after 1500 ms; it expires in the end anyway (the cap).
$taken = false;
wt_until(function () use ($other, $key, &$taken) {
    return (bool) ($taken = $other->lock($key, 60000));
}, 20, 'the capped lock expiring');
echo 'renewals sent before it expired: ', wt_calls($port, 'evalsha') - $before, "\n";
usleep(1000000); // the thread stays idle: no third renewal
echo 'renewals sent in all: ', wt_calls($port, 'evalsha') - $before, "\n";
var_dump($r->validity($lock)); // expired: false (a round trip: the lock was capped, not lost)
var_dump($r->unlock($lock));   // not ours any more
var_dump(rt_redis($port, 'GET', $key) === $taken['token']);
?>
--EXPECT--
bool(true)
renewals sent before it expired: 2
renewals sent in all: 2
bool(false)
bool(false)
bool(true)
