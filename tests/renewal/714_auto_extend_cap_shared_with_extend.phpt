--TEST--
autoExtend with maxExtensions 2: a manual extend() and the background renewals share the lock's cap (1 + 1, then the lock expires); extend() past the cap is false without a round trip
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
$before = wt_calls($port, 'pexpire'); // granted extensions, by extend() or a renewal: the only PEXPIREs
$lock = $r->lock($key, 1500);
var_dump(is_array($r->extend($lock, 1600)));     // 1 of 2 (longer than the PTTL left: a PEXPIRE)
$taken = false;
wt_until(function () use ($other, $key, &$taken) {
    return (bool) ($taken = $other->lock($key, 60000));
}, 20, 'the capped lock expiring');
echo 'extensions granted by the server: ', wt_calls($port, 'pexpire') - $before, "\n";
$sent = wt_calls($port, 'eval'); // every script is an EVAL
var_dump($r->extend($lock, 1500));                // over the cap
echo 'sent by it: ', wt_calls($port, 'eval') - $sent, "\n";
var_dump(rt_redis($port, 'GET', $key) === $taken['token']);
?>
--EXPECT--
bool(true)
extensions granted by the server: 2
bool(false)
sent by it: 0
bool(true)
