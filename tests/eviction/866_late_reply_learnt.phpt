--TEST--
Eviction guard: a server whose replies come after the quorum (behind the fault proxy, 400 ms late) is learnt on the first lock() all the same (issue 32, item 14): its connect-time answers are awaited within the call's bound, so getServerWarnings() names its allkeys-lru at once; on the connection kept, later calls do not wait for it again
--EXTENSIONS--
redlock
--FILE--
<?php
require __DIR__ . '/../inc/faultproxy.inc';
fp_alarm(30);
$s = fp_time_scale();
$a = fp_spawn_server();
$b = fp_spawn_server();
$lru = fp_spawn_server(['--maxmemory-policy', 'allkeys-lru']);
$proxy = fp_start([$lru['port']]);
$delay = (int) (400 * $s);
fp_set($proxy, $lru['port'], 'all', "delay_c2s=$delay");
$r = new RedLock([['127.0.0.1', $a['port'], 3.0 * $s], ['127.0.0.1', $b['port'], 3.0 * $s],
    ['127.0.0.1', $proxy['listen'][$lru['port']], 3.0 * $s]], 0, 1);
$key = rt_key('e866');
$lock = $r->lock($key, (int) (10000 * $s));
echo "locked: ", var_export($lock !== false, true), "\n";
var_dump($r->getServerWarnings());
// The connection is kept: what it learnt is not asked again, and the next call ends with the quorum.
$t = microtime(true);
$second = $r->lock("$key-2", (int) (10000 * $s));
echo "second lock: ", var_export($second !== false, true), ", before the late server's reply: ",
    var_export(microtime(true) - $t < $delay / 1000, true), "\n";
var_dump($r->getServerWarnings()[2]);
?>
--EXPECT--
locked: true
array(3) {
  [0]=>
  NULL
  [1]=>
  NULL
  [2]=>
  string(48) "maxmemory-policy allkeys-lru can evict lock keys"
}
second lock: true, before the late server's reply: true
string(48) "maxmemory-policy allkeys-lru can evict lock keys"
