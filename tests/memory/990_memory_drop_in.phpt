--TEST--
memory:// servers (the test double): no Redis; the drop-in arrays, contention between two objects, keys() for assertions, expiry on the test clock (advance(): the servers' keys and validity() alike), extend(), unlock(), run(), multi-resource, shared locks, semaphores, fencing, promote()/demote(), forceUnlock(), autoExtend with onLoss when the test clock jumps past a lease, reset()
--EXTENSIONS--
redlock
--SKIPIF--
<?php if (PHP_OS_FAMILY === 'Windows') die('skip memory:// needs unix sockets'); ?>
--FILE--
<?php
$servers = ['memory://a', 'memory://b', 'memory://c'];
$r = new RedLock($servers);
$rival = new RedLock($servers, 0, 1);

echo "-- drop-in\n";
$lock = $r->lock('orders:42', 10000);
var_dump(array_keys($lock), $lock['validity'] > 9000 && $lock['validity'] <= 10000, $lock['resource']);
var_dump($rival->lock('orders:42', 10000));
$votes = array_count_values(array_map('strval', $rival->getLastErrors()));
var_dump(($votes['taken'] ?? 0) >= 2 && ($votes['taken'] ?? 0) + ($votes['no reply needed'] ?? 0) === 3);
var_dump(RedLockMemory::keys('memory://b')['orders:42'] > 9000);
$lock = $r->extend($lock, 20000);
var_dump($lock['validity'] > 19000, RedLockMemory::keys('c')['orders:42'] > 19000);
var_dump($r->unlock($lock), RedLockMemory::keys('a'), is_array($l = $rival->lock('orders:42', 1000)));
var_dump($r->extend($lock, 20000)); // the rival's key now: not ours to extend
$rival->unlock($l);

echo "-- the test clock\n";
$lock = $r->lock('report', 5000);
RedLockMemory::advance(4000);
$left = $r->validity($lock);
var_dump($left > 500 && $left < 1100);
RedLockMemory::advance(1001);
var_dump($r->validity($lock), RedLockMemory::keys('a'), is_array($rival->lock('report', 10000)));

echo "-- run()\n";
var_dump($r->run('job', 1000, function (array $lock, RedLock $r) use ($rival) {
    return [$lock['resource'], $rival->lock('job', 1000)];
}));
// keys() gives each key's remaining ms: compare names only (two readings can straddle a millisecond)
echo array_keys(RedLockMemory::keys('a')) === ['report'] ? "run() released\n" : "left a key\n";

echo "-- other kinds\n";
// ttls of 10 s: this part takes several calls per lock, which under valgrind can add up to a second
$multi = $r->lock(['m:1', 'm:2'], 10000);
var_dump($multi['resource'], $rival->lock('m:2', 10000), $rival->lock(['m:2', 'm:3'], 10000));
$readers = [$r->lockShared('doc', 10000), $rival->lockShared('doc', 10000)];
var_dump(count(array_filter($readers)), $r->lock('doc', 10000));
$short = $r->lockShared('doc:2', 2000);  // a reader's validity is its own, not the longest reader's
$long = $rival->lockShared('doc:2', 10000);
var_dump($r->validity($short) <= 2000, $r->validity($r->extend($short, 8000)) > 7000, $r->unlock($short), $rival->unlock($long));
$slots = [$r->lockSemaphore('pool', 2, 10000), $r->lockSemaphore('pool', 2, 10000), $rival->lockSemaphore('pool', 2, 10000)];
$given = array_map(fn ($s) => is_array($s) ? $s['slot'] : $s, array_slice($slots, 0, 2));
sort($given); // the slot tried first is drawn at random: two holders, two different slots
var_dump($given, $slots[2]);
$f = new RedLock($servers, 0, 1, ['fencing' => true]);
$a = $f->lock('fenced', 10000);
$f->unlock($a);
$b = $f->lock('fenced', 10000);
var_dump($a['fence'], $b['fence']);
var_dump($r->promote($readers[0], 10000)); // beside another reader: refused
$rival->unlock($readers[1]);
$w = $r->promote($readers[0], 10000);
var_dump(isset($w['shared']), $rival->lockShared('doc', 10000));
$d = $r->demote($w, 10000);
var_dump($r->demote($w, 10000)); // no longer an exclusive lock of ours
var_dump($d['shared'], is_array($rival->lockShared('doc', 10000)));
// one key: that slot's key goes on every server, the other slot's stays
var_dump($r->forceUnlock('pool:slot:0'), array_values(array_filter(array_keys(RedLockMemory::keys('b')),
    fn ($k) => str_starts_with($k, 'pool:'))));
var_dump($r->forceUnlock(['m:1', 'm:2']), is_array($rival->lock('m:1', 10000)));

echo "-- a paused process: autoExtend, onLoss\n";
$told = [];
$watched = new RedLock($servers, 10, 3, ['autoExtend' => true,
    'onLoss' => function (array $lock, string $reason) use (&$told) { $told[] = $reason; }]);
$held = $watched->lock('lease', 3000);
usleep(2200000); // renewed in real time (every 1 s): still held, where an unrenewed lease would have 800 ms left
var_dump($watched->validity($held) > 1000);
RedLockMemory::advance(10000); // the process "slept" past its lease
$until = microtime(true) + 2;
while (!$told && microtime(true) < $until) {
    usleep(1000);
}
var_dump($told, $watched->validity($held), is_array($rival->lock('lease', 1000)));

echo "-- without scripts (SET IFEQ PX, MSETEX, DELIFEQ, as Valkey 9)\n";
$plain = new RedLock($servers, 10, 3, ['scripts' => false]);
$l = $plain->lock('no-lua', 5000);
try { // SET IFEQ PX sets the ttl: another one could let a delayed earlier extension cut the lock short
    $plain->extend($l, 9000);
    echo "extended with another ttl\n";
} catch (ValueError $e) {
    echo $e->getMessage(), "\n";
}
var_dump(is_array($plain->extend($l, 5000)), $plain->validity($l) > 4000, $plain->unlock($l),
    array_key_exists('no-lua', RedLockMemory::keys('b')));
$gone = $plain->lock('no-lua:x', 5000); // SET IFEQ PX extends only where the value is our token
$r->forceUnlock('no-lua:x');
$taken = $rival->lock('no-lua:x', 5000);
var_dump($plain->extend($gone, 5000), $plain->unlock($gone), $rival->unlock($taken)); // DELIFEQ: ours only
$m = $plain->lock(['no-lua:1', 'no-lua:2'], 5000); // MSETEX NX PX: both keys or neither
var_dump($plain->lock(['no-lua:2', 'no-lua:3'], 5000), array_key_exists('no-lua:3', RedLockMemory::keys('a')));
var_dump($m['resource'] ?? $m, $rival->lock('no-lua:2', 5000), is_array($plain->extend($m, 5000)), $plain->unlock($m),
    array_intersect(['no-lua:1', 'no-lua:2'], array_keys(RedLockMemory::keys('c'))));

RedLockMemory::reset();
var_dump(RedLockMemory::keys('a'), RedLockMemory::keys('b'), is_array($r->lock('orders:42', 1000)));
?>
--EXPECTF--
-- drop-in
array(3) {
  [0]=>
  string(8) "validity"
  [1]=>
  string(8) "resource"
  [2]=>
  string(5) "token"
}
bool(true)
string(9) "orders:42"
bool(false)
bool(true)
bool(true)
bool(true)
bool(true)
bool(true)
array(0) {
}
bool(true)
bool(false)
-- the test clock
bool(true)
bool(false)
array(0) {
}
bool(true)
-- run()
array(2) {
  [0]=>
  string(3) "job"
  [1]=>
  bool(false)
}
run() released
-- other kinds
array(2) {
  [0]=>
  string(3) "m:1"
  [1]=>
  string(3) "m:2"
}
bool(false)
bool(false)
int(2)
bool(false)
bool(true)
bool(true)
bool(true)
bool(true)
array(2) {
  [0]=>
  int(0)
  [1]=>
  int(1)
}
bool(false)
int(1)
int(2)
bool(false)
bool(false)
bool(false)
bool(false)
bool(true)
bool(true)
bool(true)
array(1) {
  [0]=>
  string(11) "pool:slot:1"
}
bool(true)
bool(true)
-- a paused process: autoExtend, onLoss
bool(true)
array(1) {
  [0]=>
  string(7) "expired"
}
bool(false)
bool(true)
-- without scripts (SET IFEQ PX, MSETEX, DELIFEQ, as Valkey 9)
RedLock::extend(): Argument #2 ($ttl) must be the ttl the lock was taken with (5000 ms, carried by ["token"]) when scripts are not used ("scripts" => false): a command with another ttl could cut the lock short for its other holders
bool(true)
bool(true)
bool(true)
bool(false)
bool(false)
bool(false)
bool(true)
bool(false)
bool(false)
array(2) {
  [0]=>
  string(8) "no-lua:1"
  [1]=>
  string(8) "no-lua:2"
}
bool(false)
bool(true)
bool(true)
array(0) {
}
array(0) {
}
array(0) {
}
bool(true)
