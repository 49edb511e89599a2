--TEST--
Swoole: a lock taken on a spare connection set whose SET to a slow server was still owed when the call ended, released once that set has been idle past its closing time: the set is closed first, then the lock's call runs on another one (the set the lock was bound to was looked up before the closing, and then used after being freed)
--EXTENSIONS--
redlock
--SKIPIF--
<?php require __DIR__ . '/coroutines.inc'; co_skip_without_swoole(); ?>
--FILE--
<?php
require __DIR__ . '/coroutines.inc';
require __DIR__ . '/../inc/faultproxy.inc';
use Swoole\Coroutine;
fp_alarm(30);
$s = fp_time_scale();
$a = fp_spawn_server();
$b = fp_spawn_server();
$c = fp_spawn_server();
$proxy = fp_start([$a['port']]);
$delay = (int) (300 * $s);
$servers = [['127.0.0.1', $proxy['listen'][$a['port']], 0.5 * $s], ['127.0.0.1', $b['port'], 0.5 * $s],
    ['127.0.0.1', $c['port'], 0.5 * $s]];
$r = new RedLock($servers, 100, 3, ['persistent' => false]);
$rival = new RedLock($servers, 10, 0, ['persistent' => false]);
$busy = rt_key('busy');
$rivalLock = $rival->lock($busy, 30000);   // B and C hold it: the object's contended call keeps its set
$r->unlock($r->lock(rt_key('warm'), 1000)); // the object's own set connected, undelayed
fp_set($proxy, $a['port'], 'next', "delay_c2s=$delay"); // the next connection to A: the spare set's
$key = rt_key('late');
$lock = false;
co_run(function () use ($r, $busy, $key, &$lock) {
    Coroutine::create(function () use ($r, $busy) { $r->lock($busy, 5000); }); // holds the own set, retrying
    Coroutine::create(function () use ($r, $key, &$lock) { $lock = $r->lock($key, 30000); }); // a spare: B, C
});
echo $lock === false ? "not locked\n" : "locked on a spare\n";
usleep((int) (2600 * 1000 * $s));          // the spare idle past its closing time (2 s); A has its SET
var_dump($r->unlock($lock));
$left = rf_cmd($a['port'], 'EXISTS', $key) + rf_cmd($b['port'], 'EXISTS', $key) + rf_cmd($c['port'], 'EXISTS', $key);
echo "keys left: $left\n";
var_dump($r->lock($key, 1000) !== false);  // the object goes on
$rival->unlock($rivalLock);
?>
--EXPECT--
locked on a spare
bool(true)
keys left: 0
bool(true)
