--TEST--
Eviction guard: a server started with maxmemory-policy allkeys-lru (and one with volatile-lru) is reported on its first use, in getServerWarnings(), the observer's 'warning', metrics()['server_policies'] and phpinfo(); its vote still counts ('warn', the default) and getLastErrors() stays about votes
--EXTENSIONS--
redlock
--FILE--
<?php
require __DIR__ . '/../inc/redlock_test.inc';
$key = rt_key();
[$p0] = rt_ports();
$lru = rt_spawn_server(['--maxmemory-policy', 'allkeys-lru']);
$volatile = rt_spawn_server(['--maxmemory-policy', 'volatile-lru']);
$warnings = [];
$redlock = new RedLock([['127.0.0.1', $p0, 3.0], ['127.0.0.1', $lru['port'], 3.0], ['127.0.0.1', $volatile['port'], 3.0]], 10, 1,
    ['quorum' => 3, 'observer' => function (array $call) use (&$warnings) { $warnings[] = array_column($call['servers'], 'warning'); }]);
var_dump($redlock->getServerWarnings()); // nothing learnt before the first use

$lock = $redlock->lock($key, 10000);
var_dump($lock !== false, $redlock->getLastErrors(), $redlock->getServerWarnings());
echo json_encode($warnings[0]), "\n";
var_dump($redlock->unlock($lock));

$policies = RedLock::metrics()['server_policies'];
var_dump($policies["127.0.0.1:$p0"], $policies["127.0.0.1:{$lru['port']}"], $policies["127.0.0.1:{$volatile['port']}"]);
ob_start();
phpinfo(INFO_MODULES);
$info = ob_get_clean();
foreach ([$p0, $lru['port'], $volatile['port']] as $port) {
    echo preg_match("/^maxmemory-policy of 127\\.0\\.0\\.1:$port => (.*)$/m", $info, $m) ? $m[1] : 'MISSING', "\n";
}
// No credentials anywhere in what the guard shows.
$secret = new RedLock(["redis://:hunter2@127.0.0.1:{$lru['port']}"]);
rt_redis($lru['port'], 'CONFIG', 'SET', 'requirepass', 'hunter2');
var_dump($secret->lock("$key-2", 1000) !== false, $secret->getServerWarnings());
ob_start();
phpinfo(INFO_MODULES);
var_dump(str_contains(ob_get_clean(), 'hunter2'), str_contains(json_encode(RedLock::metrics()), 'hunter2'));
?>
--EXPECTF--
array(3) {
  [0]=>
  NULL
  [1]=>
  NULL
  [2]=>
  NULL
}
bool(true)
array(3) {
  [0]=>
  NULL
  [1]=>
  NULL
  [2]=>
  NULL
}
array(3) {
  [0]=>
  NULL
  [1]=>
  string(48) "maxmemory-policy allkeys-lru can evict lock keys"
  [2]=>
  string(49) "maxmemory-policy volatile-lru can evict lock keys"
}
[null,"maxmemory-policy allkeys-lru can evict lock keys","maxmemory-policy volatile-lru can evict lock keys"]
bool(true)
string(10) "noeviction"
string(11) "allkeys-lru"
string(12) "volatile-lru"
noeviction
allkeys-lru (can evict lock keys)
volatile-lru (can evict lock keys)
bool(true)
array(1) {
  [0]=>
  string(48) "maxmemory-policy allkeys-lru can evict lock keys"
}
bool(false)
bool(false)
