--TEST--
The primitives' scripts are sent as EVAL, not in the connect greeting: SCRIPT FLUSH before each call changes nothing (lock, extend, validity, unlock of each)
--EXTENSIONS--
redlock
--FILE--
<?php
require __DIR__ . '/../inc/redlock_test.inc';
$r = new RedLock(rt_servers(5, 2.0), 10, 1, ['fencing' => true]);
$calls = [
    'semaphore' => fn ($k) => $r->lockSemaphore($k, 2, 10000),
    'shared' => fn ($k) => $r->lockShared($k, 10000),
    'fenced' => fn ($k) => $r->lock($k, 10000),
];
foreach ($calls as $name => $acquire) {
    foreach (rt_ports() as $p) {
        rt_redis($p, 'SCRIPT', 'FLUSH');
    }
    $lock = $acquire(rt_key($name));
    echo "$name: ", var_export(is_array($lock), true);
    foreach (rt_ports() as $p) {
        rt_redis($p, 'SCRIPT', 'FLUSH');
    }
    $extended = $r->extend($lock, 10000);
    foreach (rt_ports() as $p) {
        rt_redis($p, 'SCRIPT', 'FLUSH');
    }
    echo ', extend ', var_export(is_array($extended), true), ', validity ', var_export($r->validity($lock) > 0, true);
    foreach (rt_ports() as $p) {
        rt_redis($p, 'SCRIPT', 'FLUSH');
    }
    echo ', unlock ', var_export($r->unlock($lock), true), "\n";
}
?>
--EXPECT--
semaphore: true, extend true, validity true, unlock true
shared: true, extend true, validity true, unlock true
fenced: true, extend true, validity true, unlock true
