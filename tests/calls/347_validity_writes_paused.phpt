--TEST--
validity() is a read to the servers (issue 32, item 13): with writes paused (CLIENT PAUSE WRITE) on 2 of 3 servers, every kind's validity() (exclusive, fenced, several resources, a semaphore's slot, a shared holder, and without scripts) and inspect() answer at once with the time left; an EVAL without the no-writes flag waited there for the pause to end
--EXTENSIONS--
redlock
--FILE--
<?php
require __DIR__ . '/../inc/redlock_test.inc';
$s = rt_time_scale();
$servers = [rt_spawn_server(), rt_spawn_server(), rt_spawn_server()];
$list = array_map(fn ($srv) => ['127.0.0.1', $srv['port'], 1.0 * $s], $servers);
$r = new RedLock($list, 0, 1);
$fenced = new RedLock($list, 0, 1, ['fencing' => true]);
$plain = new RedLock($list, 0, 1, ['scripts' => false]);
$ttl = (int) (30000 * $s);
$locks = [
    'exclusive' => [$r, $r->lock(rt_key('v347x'), $ttl)],
    'fenced' => [$fenced, $fenced->lock(rt_key('v347f'), $ttl)],
    'several resources' => [$r, $r->lock([rt_key('v347a'), rt_key('v347b')], $ttl)],
    'semaphore' => [$r, $r->lockSemaphore(rt_key('v347s'), 2, $ttl)],
    'shared' => [$r, $r->lockShared(rt_key('v347h'), $ttl)],
    'without scripts' => [$plain, $plain->lock(rt_key('v347p'), $ttl)],
];
$pause = (int) (8000 * $s);
foreach ([$servers[0], $servers[1]] as $srv) {
    rt_redis($srv['port'], 'CLIENT', 'PAUSE', (string) $pause, 'WRITE');
}
$started = microtime(true);
foreach ($locks as $name => [$object, $lock]) {
    $v = $object->validity($lock);
    echo "$name: taken ", var_export(is_array($lock), true), ", validity ",
        is_float($v) && $v > $ttl / 2 ? 'positive' : var_export($v, true),
        is_float($v) ? '' : ' ' . json_encode($object->getLastErrors()), "\n";
}
$i = $r->inspect(rt_key('v347x'));
echo "inspect: held ", var_export($i['held'] ?? null, true), "\n";
echo "all answered before the pause ended: ", var_export(microtime(true) - $started < $pause / 1000, true), "\n";
foreach ([$servers[0], $servers[1]] as $srv) {
    rt_redis($srv['port'], 'CLIENT', 'UNPAUSE');
}
?>
--EXPECT--
exclusive: taken true, validity positive
fenced: taken true, validity positive
several resources: taken true, validity positive
semaphore: taken true, validity positive
shared: taken true, validity positive
without scripts: taken true, validity positive
inspect: held true
all answered before the pause ended: true
