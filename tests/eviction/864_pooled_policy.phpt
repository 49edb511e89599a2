--TEST--
Eviction guard: the policy is learnt once per connection and kept with it in the pool: a later object (a later FPM request) on the pooled connection shows the warning, and 'refuse' applies, without another CONFIG GET or INFO; memory:// servers answer the probes with noeviction
--EXTENSIONS--
redlock
--INI--
redlock.persistent=1
--FILE--
<?php
require __DIR__ . '/../inc/redlock_test.inc';
$key = rt_key();
$srv = rt_spawn_server(['--maxmemory-policy', 'allkeys-lru']);
$port = $srv['port'];
$probes = function () use ($port) {
    $stats = rt_redis($port, 'INFO', 'commandstats');
    $n = 0;
    foreach (['config|get', 'info'] as $cmd) {
        if (preg_match('/^cmdstat_' . preg_quote($cmd, '/') . ':calls=(\d+)/m', $stats, $m)) {
            $n += (int) $m[1];
        }
    }
    return $n;
};
$use = function (string $mode) use ($port, $key) {
    $redlock = new RedLock(["redis://127.0.0.1:$port"], 10, 1, ['evictingServers' => $mode]);
    $lock = $redlock->lock($key, 10000);
    if ($lock !== false) {
        $redlock->unlock($lock);
    }
    return [$lock !== false, $redlock->getServerWarnings()[0], $redlock->getLastErrors()[0]];
};
$connects = rt_info($port, 'total_connections_received');
$before = $probes(); // our own INFO calls count too: each $probes() adds one
var_dump($use('warn'), $probes() - $before - 1);
var_dump($use('warn'), $probes() - $before - 2);   // the pooled connection: no probe again
var_dump($use('refuse'), $probes() - $before - 3); // the policy it brought is refused
var_dump(rt_info($port, 'total_connections_received') - $connects); // one connection for the three objects (rt_redis keeps its own link)

$memory = new RedLock(['memory://a', 'memory://b', 'memory://c'], 10, 1, ['quorum' => 3]);
$lock = $memory->lock($key, 1000);
var_dump($lock !== false, $memory->getServerWarnings());
$policies = RedLock::metrics()['server_policies'];
$memoryPolicies = array_filter($policies, fn ($address) => str_contains($address, 'redlock-memory'), ARRAY_FILTER_USE_KEY);
var_dump(array_values($memoryPolicies));
?>
--EXPECT--
array(3) {
  [0]=>
  bool(true)
  [1]=>
  string(48) "maxmemory-policy allkeys-lru can evict lock keys"
  [2]=>
  NULL
}
int(2)
array(3) {
  [0]=>
  bool(true)
  [1]=>
  string(48) "maxmemory-policy allkeys-lru can evict lock keys"
  [2]=>
  NULL
}
int(2)
array(3) {
  [0]=>
  bool(false)
  [1]=>
  string(48) "maxmemory-policy allkeys-lru can evict lock keys"
  [2]=>
  string(94) "maxmemory-policy allkeys-lru can evict lock keys: vote refused ('evictingServers' => 'refuse')"
}
int(2)
int(1)
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
  string(10) "noeviction"
  [1]=>
  string(10) "noeviction"
  [2]=>
  string(10) "noeviction"
}
