--TEST--
inspect() counts holders, not keys, for shared readers and semaphore slots too (issue 32, item 11): 'holders' is the number of reader tokens (HKEYS) or slot holders (MGET: a token in its slot) that a quorum of servers keep. Keys placed by hand on 5 servers: two holders on two overlapping quorums (servers 0-2 and 2-4) are 2, not the 1 a per-server count gives; two minorities (0-1 and 2-3) are nobody's: free (isLocked() false for the readers); one token in slot 0 on two servers and slot 1 on a third holds no slot; a full limit-2 semaphore and two readers taken by lockSemaphore()/lockShared() are 2
--EXTENSIONS--
redlock
--FILE--
<?php
require __DIR__ . '/../inc/redlock_test.inc';
$r = new RedLock(rt_servers(5, 3.0), 0, 1);
$ports = rt_ports();
$token = fn (string $c) => str_repeat($c, 48);
$show = function (string $what, ?array $i, ?bool $locked = null) {
    echo "$what: held ", var_export($i['held'], true), ", kind ", var_export($i['kind'], true),
        ", holders {$i['holders']}", $locked === null ? '' : ', isLocked ' . var_export($locked, true), "\n";
};
$slot = function (string $key, int $n, string $tok, array $on) use ($ports) {
    foreach ($on as $s) {
        rt_redis($ports[$s], 'SET', "$key:slot:$n", $tok, 'PX', '20000');
    }
};
$reader = function (string $key, string $tok, array $on) use ($ports) {
    foreach ($on as $s) {
        rt_redis($ports[$s], 'HSET', $key, $tok, (string) (intdiv(hrtime(true), 1000000) + 20000000));
        rt_redis($ports[$s], 'PEXPIRE', $key, '20000');
    }
};

echo "-- semaphore (limit 2)\n";
$key = rt_key('sem-overlap');
$slot($key, 0, $token('a'), [0, 1, 2]);
$slot($key, 1, $token('b'), [2, 3, 4]);
$show('two overlapping quorums', $r->inspect($key, 2));
$key = rt_key('sem-minorities');
$slot($key, 0, $token('a'), [0, 1]);
$slot($key, 1, $token('b'), [2, 3]);
$show('two minorities', $r->inspect($key, 2));
$key = rt_key('sem-moved');
$slot($key, 0, $token('a'), [0, 1]);
$slot($key, 1, $token('a'), [2]);
$show('one token, two slots', $r->inspect($key, 2));
$key = rt_key('sem-taken');
$x = $r->lockSemaphore($key, 2, 10000);
$y = $r->lockSemaphore($key, 2, 10000);
$show('full, by lockSemaphore()', $r->inspect($key, 2));
$r->unlock($x);
$r->unlock($y);

echo "-- shared\n";
$key = rt_key('sh-overlap');
$reader($key, $token('c'), [0, 1, 2]);
$reader($key, $token('d'), [2, 3, 4]);
$show('two overlapping quorums', $r->inspect($key), $r->isLocked($key));
$key = rt_key('sh-minorities');
$reader($key, $token('c'), [0, 1]);
$reader($key, $token('d'), [2, 3]);
$show('two minorities', $r->inspect($key), $r->isLocked($key));
$key = rt_key('sh-taken');
$a = $r->lockShared($key, 10000);
$b = $r->lockShared($key, 10000);
$i = $r->inspect($key);
$show('two lockShared()', $i, $r->isLocked($key));
var_dump($i['ttl'] > 8000 && $i['ttl'] <= 10000);
$r->unlock($a);
$r->unlock($b);
?>
--EXPECT--
-- semaphore (limit 2)
two overlapping quorums: held true, kind 'semaphore', holders 2
two minorities: held false, kind NULL, holders 0
one token, two slots: held false, kind NULL, holders 0
full, by lockSemaphore(): held true, kind 'semaphore', holders 2
-- shared
two overlapping quorums: held true, kind 'shared', holders 2, isLocked true
two minorities: held false, kind NULL, holders 0, isLocked false
two lockShared(): held true, kind 'shared', holders 2, isLocked true
bool(true)
