--TEST--
inspect()'s holders of a shared lock are the count a quorum of servers vouches for (issue 33, item 6: inspect()'s quorum arithmetic; the readers are counted by token, reader0 on 5 servers and reader1 on 3): with 5 servers keeping 3, 2, 2, 1 and 1 readers, holders is 2 (the third largest), not a minority's 3 and not the smallest; its ttl likewise the quorum's
--EXTENSIONS--
redlock
--FILE--
<?php
require __DIR__ . '/../inc/redlock_test.inc';
$key = rt_key('i539');
$r = new RedLock(rt_servers(5, 3.0), 0, 1);
$ports = rt_ports();
$readers = [3, 2, 2, 1, 1];
$ttls = [20000, 60000, 60000, 40000, 40000];
foreach ($ports as $n => $p) {
    for ($k = 0; $k < $readers[$n]; $k++) {
        rt_redis($p, 'HSET', $key, "reader$k", '1');
    }
    rt_redis($p, 'PEXPIRE', $key, (string) $ttls[$n]);
}
$i = $r->inspect($key);
echo "held ", var_export($i['held'], true), ", kind {$i['kind']}, holders {$i['holders']}, ttl from the third longest ",
    var_export($i['ttl'] > 30000 && $i['ttl'] <= 40000, true), "\n";
rt_del($key);
?>
--EXPECT--
held true, kind shared, holders 2, ttl from the third longest true
