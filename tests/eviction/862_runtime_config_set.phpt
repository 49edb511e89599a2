--TEST--
Eviction guard: the policy is learnt once per connection, so a CONFIG SET maxmemory-policy at runtime is seen by a long-lived object when its connection is next opened (here after CLIENT KILL), not before; both directions, and 'refuse' follows what was learnt
--EXTENSIONS--
redlock
--FILE--
<?php
require __DIR__ . '/../inc/redlock_test.inc';
$key = rt_key();
[$p0, $p1] = rt_ports();
$srv = rt_spawn_server();
$port = $srv['port'];
$redlock = new RedLock([['127.0.0.1', $p0, 3.0], ['127.0.0.1', $p1, 3.0], ['127.0.0.1', $port, 3.0]], 10, 1,
    ['quorum' => 3, 'evictingServers' => 'refuse']);
$cycle = function () use ($redlock, $key) {
    $lock = $redlock->lock($key, 10000);
    if ($lock !== false) {
        $redlock->unlock($lock);
    }
    return [$lock !== false, $redlock->getServerWarnings()[2]];
};
var_dump($cycle());                                              // noeviction: no warning
rt_redis($port, 'CONFIG', 'SET', 'maxmemory-policy', 'allkeys-lfu');
var_dump($cycle());                                              // the open connection learnt noeviction
rt_redis($port, 'CLIENT', 'KILL', 'TYPE', 'normal');             // ends our connection (and nothing else of ours)
var_dump($cycle());                                              // reconnected: learnt allkeys-lfu, refused
rt_redis($port, 'CONFIG', 'SET', 'maxmemory-policy', 'noeviction');
rt_redis($port, 'CLIENT', 'KILL', 'TYPE', 'normal');
var_dump($cycle());                                              // and back
?>
--EXPECT--
array(2) {
  [0]=>
  bool(true)
  [1]=>
  NULL
}
array(2) {
  [0]=>
  bool(true)
  [1]=>
  NULL
}
array(2) {
  [0]=>
  bool(false)
  [1]=>
  string(48) "maxmemory-policy allkeys-lfu can evict lock keys"
}
array(2) {
  [0]=>
  bool(true)
  [1]=>
  NULL
}
