--TEST--
inspect() decides by quorum (issue 26, item 4): a key on 2 of 5 servers (a minority, set there by hand) is not held (isLocked() false), on 3 of 5 it is; 3 of 5 servers unreachable: null from both calls; the 3 holding servers up and the 2 others unreachable: held, from the 3 that answered; an object whose every server is unreachable: null, promptly
--EXTENSIONS--
redlock
--FILE--
<?php
require __DIR__ . '/../inc/redlock_test.inc';
$ports = rt_ports();
$r = new RedLock(rt_servers(), 0, 1);

echo "-- minority\n";
$key = rt_key('minority');
foreach (array_slice($ports, 0, 2) as $p) {
    rt_redis($p, 'SET', $key, 'someone', 'PX', '10000');
}
$i = $r->inspect($key);
var_dump($i['held'], $i['kind'], $r->isLocked($key));
rt_redis($ports[2], 'SET', $key, 'someone', 'PX', '10000');
$i = $r->inspect($key);
var_dump($i['held'], $i['kind'], $r->isLocked($key));

echo "-- servers down\n";
$dead = [rt_free_port(), rt_free_port(), rt_free_port()];
$mixed = array_merge(array_slice(rt_servers(), 2, 2), array_map(fn ($p) => ['127.0.0.1', $p, 0.2], $dead));
$half = new RedLock($mixed, 0, 1);
var_dump($half->inspect($key), $half->isLocked($key));
$some = new RedLock(array_merge(rt_servers(3), array_map(fn ($p) => ['127.0.0.1', $p, 0.2], array_slice($dead, 0, 2))), 0, 1);
$i = $some->inspect($key);
var_dump($i['held'], $i['servers']);
$none = new RedLock(array_map(fn ($p) => ['127.0.0.1', $p, 0.2], $dead), 0, 1);
$t = microtime(true);
var_dump($none->inspect($key), $none->isLocked($key), microtime(true) - $t < 1.5);
rt_del($key);
?>
--EXPECT--
-- minority
bool(false)
NULL
bool(false)
bool(true)
string(9) "exclusive"
bool(true)
-- servers down
NULL
NULL
bool(true)
int(3)
NULL
NULL
bool(true)
