--TEST--
Eviction guard, 'evictingServers' => 'refuse': the vote of a server whose maxmemory-policy can evict lock keys does not count (a per-server error in getLastErrors(), not an exception); the lock forms on the others, and with too many refused it is false, the refused servers' keys released as any others
--EXTENSIONS--
redlock
--FILE--
<?php
require __DIR__ . '/../inc/redlock_test.inc';
$key = rt_key();
[$p0, $p1] = rt_ports();
$lru = rt_spawn_server(['--maxmemory-policy', 'allkeys-lru']);
$ttl = rt_spawn_server(['--maxmemory-policy', 'volatile-ttl']);
$server = fn (int $port) => ['127.0.0.1', $port, 3.0]; // roomy: the first call under valgrind

// One evicting server of three: its vote is refused, the two others make the quorum (its entry is
// the refusal, or "no reply needed" when the others answered first).
$refused = "maxmemory-policy allkeys-lru can evict lock keys: vote refused ('evictingServers' => 'refuse')";
$redlock = new RedLock([$server($p0), $server($lru['port']), $server($p1)], 10, 1, ['evictingServers' => 'refuse']);
$lock = $redlock->lock($key, 10000);
$errors = $redlock->getLastErrors();
var_dump($lock !== false, $errors[0], $errors[2], in_array($errors[1], [$refused, 'no reply needed'], true));
var_dump($redlock->unlock($lock));
var_dump(rt_eventually(fn () => rt_redis($lru['port'], 'EXISTS', $key) === 0)); // the release reached it too

// Where its vote would be needed (quorum 3 of 3) the lock is false with 'refuse', true with 'warn'.
$all = fn (string $mode) => new RedLock([$server($p0), $server($lru['port']), $server($p1)], 10, 1,
    ['evictingServers' => $mode, 'quorum' => 3]);
$strict = $all('refuse');
var_dump($strict->lock("$key-1", 10000), $strict->getLastErrors()[1]);
var_dump(rt_eventually(fn () => rt_redis($lru['port'], 'EXISTS', "$key-1") === 0));
$lenient = $all('warn');
$lock = $lenient->lock("$key-1", 10000);
var_dump($lock !== false, $lenient->getLastErrors()[1], $lenient->getServerWarnings()[1]);
$lenient->unlock($lock);

// Two of three: no quorum; the keys the attempt wrote are rolled back everywhere.
$two = new RedLock([$server($p0), $server($lru['port']), $server($ttl['port'])], 10, 2, ['evictingServers' => 'refuse']);
$result = $two->lock("$key-2", 10000);
$errors = $two->getLastErrors(); // the good server's yes may come after the two refusals decided it
var_dump($result, in_array($errors[0], [null, 'no reply needed'], true), $errors[1], $errors[2]);
var_dump(rt_eventually(fn () => rt_redis($p0, 'EXISTS', "$key-2") + rt_redis($lru['port'], 'EXISTS', "$key-2")
    + rt_redis($ttl['port'], 'EXISTS', "$key-2") === 0));

// The same servers with 'warn' (the default): every vote counts, the warnings stay.
$warn = new RedLock([$server($p0), $server($lru['port']), $server($ttl['port'])], 10, 1, ['evictingServers' => 'warn', 'quorum' => 3]);
$lock = $warn->lock("$key-3", 10000);
var_dump($lock !== false, $warn->getLastErrors(), $warn->getServerWarnings()[2]);
$warn->unlock($lock);

// Every kind passes the guard: a shared lock and a semaphore on the refused pair fail the same way.
var_dump($two->lockShared("$key-4", 10000), $two->lockSemaphore("$key-5", 2, 10000), $two->getLastErrors()[2]);
?>
--EXPECT--
bool(true)
NULL
NULL
bool(true)
bool(true)
bool(true)
bool(false)
string(94) "maxmemory-policy allkeys-lru can evict lock keys: vote refused ('evictingServers' => 'refuse')"
bool(true)
bool(true)
NULL
string(48) "maxmemory-policy allkeys-lru can evict lock keys"
bool(false)
bool(true)
string(94) "maxmemory-policy allkeys-lru can evict lock keys: vote refused ('evictingServers' => 'refuse')"
string(95) "maxmemory-policy volatile-ttl can evict lock keys: vote refused ('evictingServers' => 'refuse')"
bool(true)
bool(true)
array(3) {
  [0]=>
  NULL
  [1]=>
  NULL
  [2]=>
  NULL
}
string(49) "maxmemory-policy volatile-ttl can evict lock keys"
bool(false)
bool(false)
string(95) "maxmemory-policy volatile-ttl can evict lock keys: vote refused ('evictingServers' => 'refuse')"
