--TEST--
Sentinel members: autoExtend's renewal thread follows a failover: once the old master is demoted (its clients closed), the thread asks the sentinels itself and keeps renewing the key on the promoted replica past the ttl
--EXTENSIONS--
redlock
--SKIPIF--
<?php require __DIR__ . '/../inc/sentinel.inc'; sn_skipif(); ?>
--FILE--
<?php
require __DIR__ . '/../inc/sentinel.inc';
[$member] = sn_start(1, 3);
$key = rt_key();
$plain = array_map(fn ($e) => "redis://{$e[0]}:{$e[1]}?timeout=0.5", array_slice(rt_endpoints(), 0, 2));
$r = new RedLock([sn_uri($member), ...$plain], 10, 1, ['autoExtend' => true]);
$lock = $r->lock($key, 3000);
$old = $member['master']['port'];
$new = sn_failover($member);
rt_redis($old, 'REPLICAOF', '127.0.0.1', (string) $new); // what Sentinel sends a demoted master
rt_redis($old, 'CLIENT', 'KILL', 'TYPE', 'normal');
usleep(4000000); // past the 3 s ttl: only renewals keep the key
var_dump(rt_redis($new, 'GET', $key) === $lock['token'], rt_redis($new, 'PTTL', $key) > 0, $r->validity($lock) > 0);
var_dump($r->unlock($lock), rt_settled(fn () => rt_redis($new, 'EXISTS', $key)));
?>
--EXPECT--
bool(true)
bool(true)
bool(true)
bool(true)
int(0)
