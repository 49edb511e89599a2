--TEST--
Sentinel members: lock, validity, extend and unlock over 3 Sentinel-managed members (URIs and the keyed form); the keys are on the masters the sentinels name; with 'persistent' a new object takes the pooled connections without asking the sentinels again
--EXTENSIONS--
redlock
--SKIPIF--
<?php require __DIR__ . '/../inc/sentinel.inc'; sn_skipif(); ?>
--FILE--
<?php
require __DIR__ . '/../inc/sentinel.inc';
$members = sn_start(3, 0);
$key = rt_key();

$uris = array_map(fn ($m) => sn_uri($m), $members);
$keyed = array_map(fn ($m) => ['sentinels' => array_map(fn ($s) => ['127.0.0.1', $s['port']], $m['sentinels']),
    'master' => $m['name'], 'timeout' => 0.5], $members);

foreach (['URIs' => $uris, 'keyed' => $keyed] as $form => $servers) {
    $r = new RedLock($servers, 10, 1);
    $lock = $r->lock($key, 10000);
    $onMasters = array_map(fn ($m) => rt_redis($m['master']['port'], 'GET', $key) === $lock['token'], $members);
    echo "$form: locked ", json_encode($onMasters), ' errors ', json_encode(array_filter($r->getLastErrors(), fn ($e) => $e !== null && $e !== 'no reply needed')), "\n";
    $other = new RedLock($servers, 10, 1);
    var_dump($other->lock($key, 10000));
    var_dump($r->validity($lock) > 9000, is_array($r->extend($lock, 20000)), rt_redis($members[1]['master']['port'], 'PTTL', $key) > 19000);
    var_dump($r->unlock($lock), rt_settled(fn () => array_map(fn ($m) => rt_redis($m['master']['port'], 'EXISTS', $key), $members)));
}

/* A long-lived worker: objects come and go, connections stay in the pool. The next object takes
 * them without asking a sentinel: it locks with every sentinel stopped. A connection that timed out is
 * not pooled (its member asks again): the timeout grows with the machine's load (0.5 s was met at load 21). */
$pooled = array_map(fn ($m) => sn_uri($m, min(5.0, 0.5 * rt_time_scale() * rt_load_scale())), $members);
$a = new RedLock($pooled, 10, 1, ['persistent' => true]);
$lock = $a->lock($key, 10000);
$a->unlock($lock);
unset($a);
$sentinels = array_merge(...array_column($members, 'sentinels'));
array_map(fn ($s) => rt_signal($s, 'STOP'), $sentinels);
$b = new RedLock($pooled, 10, 1, ['persistent' => true]);
$lock = $b->lock($key, 10000);
var_dump(is_array($lock), json_encode(array_map(fn ($e) => $e === 'no reply needed' ? null : $e, $b->getLastErrors())),
    $b->unlock($lock));
array_map(fn ($s) => rt_signal($s, 'CONT'), $sentinels);
?>
--EXPECT--
URIs: locked [true,true,true] errors []
bool(false)
bool(true)
bool(true)
bool(true)
bool(true)
array(3) {
  [0]=>
  int(0)
  [1]=>
  int(0)
  [2]=>
  int(0)
}
keyed: locked [true,true,true] errors []
bool(false)
bool(true)
bool(true)
bool(true)
bool(true)
array(3) {
  [0]=>
  int(0)
  [1]=>
  int(0)
  [2]=>
  int(0)
}
bool(true)
string(16) "[null,null,null]"
bool(true)
