--TEST--
Renewal: a renewal that misses its quorum because a server did not answer in time (no clean "no") is retried while the lock is still valid: with quorum=3 of 3 and one server silent (a timeout) at the first renewal, the lock is still held after 3 ttls and onLoss is never told; a server silent for good still ends it, as 'renewal_failed', once its validity ran out (after the first missed renewal, within two ttls); another owner's keys still end it at the first renewal
--EXTENSIONS--
redlock
pcntl
--FILE--
<?php
require __DIR__ . '/../inc/faultproxy.inc';
fp_alarm(60);
$s = fp_time_scale();
$a = fp_spawn_server();
$b = fp_spawn_server();
$c = fp_spawn_server();
$proxy = fp_start([$c['port']]);
/* the proxied server's short timeout turns its delay into a timeout, not a late yes */
$servers = [['127.0.0.1', $a['port'], 0.5 * $s], ['127.0.0.1', $b['port'], 0.5 * $s],
    ['127.0.0.1', $proxy['listen'][$c['port']], 0.1 * $s]];
$ttl = (int) (1500 * $s);
$told = [];
$r = new RedLock($servers, 10, 3, ['autoExtend' => true, 'quorum' => 3,
    'onLoss' => function (array $lock, string $reason) use (&$told) { $told[] = [$reason, microtime(true)]; }]);

echo "-- one server silent at the first renewal\n";
$lock = $r->lock(rt_key('blip'), $ttl);
var_dump(is_array($lock));
fp_set($proxy, $c['port'], 'all', 'delay_c2s=' . (int) (300 * $s)); /* from the first renewal (ttl/3) on */
usleep((int) ($ttl * 1000 / 3 + 200000 * $s));
fp_set($proxy, $c['port'], 'all', 'delay_c2s=0');
$deadline = microtime(true) + 3 * $ttl / 1000;
while (microtime(true) < $deadline) {
    usleep(1000); // the callable would run here
}
$validity = $r->validity($lock);
echo 'told: ', json_encode(array_column($told, 0)), ', held after 3 ttls: ', var_export($validity > 0, true), "\n";
var_dump($r->unlock($lock));

echo "-- one server silent for good\n";
$told = [];
$lock = $r->lock(rt_key('gone'), $ttl);
var_dump(is_array($lock));
$start = microtime(true);
fp_set($proxy, $c['port'], 'all', 'delay_c2s=' . (int) (5000 * $s));
while (!$told && microtime(true) - $start < 3 * $ttl / 1000) {
    usleep(1000);
}
$after = ($told[0][1] ?? INF) - $start;
/* the first renewal is due at ttl/3 and misses; without the retry it would be told then */
echo 'told: ', json_encode(array_column($told, 0)), ', after the first missed renewal: ',
    var_export($after > 0.5 * $ttl / 1000, true), ', within two ttls: ', var_export($after < 2 * $ttl / 1000, true), "\n";
var_dump($r->validity($lock));
fp_set($proxy, $c['port'], 'all', 'delay_c2s=0');

echo "-- another owner takes the keys: told at once\n";
$told = [];
$lock = $r->lock($key = rt_key('taken'), $ttl);
var_dump(is_array($lock));
$start = microtime(true);
foreach ([$a, $b] as $server) {
    $redis = stream_socket_client("tcp://127.0.0.1:{$server['port']}");
    fwrite($redis, "*5\r\n$3\r\nSET\r\n$" . strlen($key) . "\r\n$key\r\n$5\r\nother\r\n$2\r\nPX\r\n$5\r\n60000\r\n");
    fgets($redis);
}
while (!$told && microtime(true) - $start < 3 * $ttl / 1000) {
    usleep(1000);
}
$after = ($told[0][1] ?? INF) - $start;
echo 'told: ', json_encode(array_column($told, 0)), ', at the first renewal: ', var_export($after < 0.5 * $ttl / 1000 + 0.2 * $s, true), "\n";
?>
--EXPECT--
-- one server silent at the first renewal
bool(true)
told: [], held after 3 ttls: true
bool(true)
-- one server silent for good
bool(true)
told: ["renewal_failed"], after the first missed renewal: true, within two ttls: true
bool(false)
-- another owner takes the keys: told at once
bool(true)
told: ["renewal_failed"], at the first renewal: true
