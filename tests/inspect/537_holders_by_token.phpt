--TEST--
inspect() and isLocked() count holders, not keys (issue 32, item 11): an exclusive lock is held only where a quorum of servers keep the same token; two minorities with two tokens (2 + 2 of 5) are nobody's lock, free; with the fifth server joining one of them it is held, its ttl from that token's servers
--EXTENSIONS--
redlock
--FILE--
<?php
require __DIR__ . '/../inc/redlock_test.inc';
$key = rt_key('i537');
$r = new RedLock(rt_servers(5, 3.0), 0, 1);
[$p0, $p1, $p2, $p3, $p4] = rt_ports();
foreach ([$p0, $p1] as $p) {
    rt_redis($p, 'SET', $key, str_repeat('a', 48), 'PX', '20000');
}
foreach ([$p2, $p3] as $p) {
    rt_redis($p, 'SET', $key, str_repeat('b', 48), 'PX', '60000');
}
$i = $r->inspect($key);
echo "two minorities: held ", var_export($i['held'], true), ", kind ", var_export($i['kind'], true),
    ", holders {$i['holders']}, isLocked ", var_export($r->isLocked($key), true), "\n";
rt_redis($p4, 'SET', $key, str_repeat('a', 48), 'PX', '20000');
$i = $r->inspect($key);
echo "a's quorum: held ", var_export($i['held'], true), ", kind {$i['kind']}, holders {$i['holders']}, ttl from a's servers ",
    var_export($i['ttl'] > 10000 && $i['ttl'] <= 20000, true), ", isLocked ", var_export($r->isLocked($key), true), "\n";
// a lock() taken normally is read as before
rt_del($key);
$lock = $r->lock($key, 10000);
$i = $r->inspect($key);
echo "lock(): held ", var_export($i['held'], true), ", holders {$i['holders']}\n";
$r->unlock($lock);
?>
--EXPECT--
two minorities: held false, kind NULL, holders 0, isLocked false
a's quorum: held true, kind exclusive, holders 1, ttl from a's servers true, isLocked true
lock(): held true, holders 1
