--TEST--
lockSemaphore(): at most $limit holders, each on its own slot; unlock frees a slot; extend/validity keep limit and slot; limit 1 is a lock
--EXTENSIONS--
redlock
--FILE--
<?php
require __DIR__ . '/../inc/redlock_test.inc';
$ports = rt_ports();
$redlock = new RedLock(rt_servers(5, 2.0), 10, 1);
$key = rt_key('sem');

echo "limit 3: three holders, the fourth refused\n";
$held = [];
for ($i = 0; $i < 3; $i++) {
    $held[] = $redlock->lockSemaphore($key, 3, 10000);
}
var_dump(array_map(fn ($l) => is_array($l), $held));
$slots = array_column($held, 'slot');
sort($slots);
var_dump($slots, array_column($held, 'limit'));
var_dump($redlock->lockSemaphore($key, 3, 10000));
echo "the tokens carry the semaphore mark, a majority holds each slot's token\n";
foreach ($held as $l) {
    $slotKey = "$key:slot:{$l['slot']}";
    if ($l['token'][0] !== 'm' || !rt_eventually(fn () => count(array_keys(rt_values($slotKey), $l['token'], true)) >= 3, 10.0)) {
        echo "slot {$l['slot']}: ", json_encode(rt_values($slotKey)), "\n";
    }
}
echo "validity and extend act on the slot\n";
$v = $redlock->validity($held[0]);
var_dump($v > 0 && $v <= 10000);
$e = $redlock->extend($held[0], 30000);
var_dump($e['slot'] === $held[0]['slot'], $e['limit'], $e['token'] === $held[0]['token']);
var_dump(rt_eventually(fn () => count(array_filter($ports, fn ($p) => rt_redis($p, 'PTTL', "$key:slot:{$held[0]['slot']}") > 10000)) >= 3, 10.0));
echo "unlock frees exactly one slot\n";
var_dump($redlock->unlock($held[1]));
var_dump(rt_eventually(fn () => rt_values("$key:slot:{$held[1]['slot']}") === array_fill(0, 5, null), 10.0));
$again = $redlock->lockSemaphore($key, 3, 10000);
var_dump($again['slot'] === $held[1]['slot']);
var_dump($redlock->lockSemaphore($key, 3, 10000));
echo "a released array no longer extends, validates or unlocks\n";
var_dump($redlock->extend($held[1], 1000), $redlock->validity($held[1]), $redlock->unlock($held[1]));
foreach ([$held[0], $held[2], $again] as $l) {
    $redlock->unlock($l);
}

echo "limit 1 excludes like a lock\n";
$one = $redlock->lockSemaphore("$key-one", 1, 10000);
var_dump($one['slot'], $redlock->lockSemaphore("$key-one", 1, 10000));
var_dump($redlock->unlock($one), is_array($two = $redlock->lockSemaphore("$key-one", 1, 10000)));
$redlock->unlock($two);

echo "semaphore slots and lock() of the same name are distinct keys\n";
$s = $redlock->lockSemaphore("$key-mix", 1, 10000);
$l = $redlock->lock("$key-mix", 10000);
var_dump(is_array($s), is_array($l));
$redlock->unlock($s);
$redlock->unlock($l);

echo "prefix applies to the slot keys\n";
$prefixed = new RedLock(rt_servers(5, 2.0), 10, 1, ['prefix' => 'pfx:']);
$p = $prefixed->lockSemaphore($key, 2, 10000);
var_dump(rt_eventually(fn () => rt_redis($ports[0], 'GET', "pfx:$key:slot:{$p['slot']}") === $p['token'], 10.0));
var_dump($prefixed->unlock($p), rt_eventually(fn () => rt_redis($ports[0], 'EXISTS', "pfx:$key:slot:{$p['slot']}") === 0, 10.0));

echo "expiry follows the servers: a holder left alone frees its slot\n";
$short = $redlock->lockSemaphore("$key-exp", 1, 150);
var_dump(is_array($short));
var_dump(rt_eventually(fn () => is_array($x = $redlock->lockSemaphore("$key-exp", 1, 10000)) && $redlock->unlock($x), 10.0));
?>
--EXPECT--
limit 3: three holders, the fourth refused
array(3) {
  [0]=>
  bool(true)
  [1]=>
  bool(true)
  [2]=>
  bool(true)
}
array(3) {
  [0]=>
  int(0)
  [1]=>
  int(1)
  [2]=>
  int(2)
}
array(3) {
  [0]=>
  int(3)
  [1]=>
  int(3)
  [2]=>
  int(3)
}
bool(false)
the tokens carry the semaphore mark, a majority holds each slot's token
validity and extend act on the slot
bool(true)
bool(true)
int(3)
bool(true)
bool(true)
unlock frees exactly one slot
bool(true)
bool(true)
bool(true)
bool(false)
a released array no longer extends, validates or unlocks
bool(false)
bool(false)
bool(false)
limit 1 excludes like a lock
int(0)
bool(false)
bool(true)
bool(true)
semaphore slots and lock() of the same name are distinct keys
bool(true)
bool(true)
prefix applies to the slot keys
bool(true)
bool(true)
bool(true)
expiry follows the servers: a holder left alone frees its slot
bool(true)
bool(true)
