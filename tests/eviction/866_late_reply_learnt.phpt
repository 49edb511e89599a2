--TEST--
Eviction guard: a server whose replies always come after the quorum (behind the fault proxy, 400 ms late) is learnt all the same (issue 32, item 14): calls do not wait for it, and once its connect-time answers have arrived, the next call's end keeps what they said, so getServerWarnings() names its allkeys-lru (5105392 never did while the server stayed slower: its late votes, read as stale replies, passed no guard)
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
$t = microtime(true);
$lock = $r->lock($key, (int) (10000 * $s));
echo "first lock: ", var_export($lock !== false, true), ", before the late server's reply: ",
    var_export(microtime(true) - $t < $delay / 1000, true), "\n";
usleep(2 * $delay * 1000); // its answers are on the socket now
$learnt = [];
for ($i = 0; $i < 3; $i++) {
    $t = microtime(true);
    $next = $r->lock("$key-$i", (int) (10000 * $s));
    $learnt[] = sprintf('%s/%s', var_export($next !== false, true), var_export(microtime(true) - $t < $delay / 1000, true));
    $learnt[] = var_export($r->getServerWarnings()[2], true);
}
echo implode("\n", $learnt), "\n";
var_dump($r->getServerWarnings());
?>
--EXPECT--
first lock: true, before the late server's reply: true
true/true
'maxmemory-policy allkeys-lru can evict lock keys'
true/true
'maxmemory-policy allkeys-lru can evict lock keys'
true/true
'maxmemory-policy allkeys-lru can evict lock keys'
array(3) {
  [0]=>
  NULL
  [1]=>
  NULL
  [2]=>
  string(48) "maxmemory-policy allkeys-lru can evict lock keys"
}
