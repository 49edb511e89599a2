--TEST--
Native release and lockShared(): unlock() of a shared holder goes by its script even where DELEX/DELIFEQ exist (the key is a hash: DELEX/DELIFEQ answer WRONGTYPE and the holder stayed until its deadline, so unlock() was false and a lock() waited for the expiry); lock(), a semaphore slot and a fenced lock keep the native release. Found by the simulation on the real connection code (verify/sim/run.sh --calm)
--EXTENSIONS--
redlock
--INI--
redlock.persistent=0
--SKIPIF--
<?php require __DIR__ . '/native.inc'; nt_skip_without_servers(); ?>
--FILE--
<?php
require __DIR__ . '/native.inc';
$commands = ['delex', 'delifeq', 'eval'];
foreach (['redis 8.6' => nt_ports('redis'), 'valkey 9' => nt_ports('valkey')] as $name => $ports) {
    $servers = array_map(fn ($p) => ['127.0.0.1', $p, 10.0], $ports);
    $key = rt_key();
    $redlock = new RedLock($servers, 10, 1);
    $other = new RedLock($servers, 10, 1);
    $warm = $redlock->lock("$key-warm", 10000); // the probes: the connections know what the servers have
    $redlock->unlock($warm);
    $shared = $redlock->lockShared($key, 60000);
    $released = null;
    $stats = nt_count($ports, $commands, function () use ($redlock, $shared, &$released) {
        $released = $redlock->unlock($shared);
    });
    $sum = array_fill_keys($commands, 0);
    foreach ($stats as $s) {
        foreach ($s as $c => $n) {
            $sum[$c] += $n;
        }
    }
    echo "$name, shared: unlock ", var_export($released, true), ", key left on ",
        count(array_filter(array_map(fn ($p) => rt_redis($p, 'EXISTS', $key), $ports))), " servers, ",
        json_encode(array_filter($sum)), "\n";
    $exclusive = $other->lock($key, 1000);
    echo "$name: lock() right after: ", var_export(is_array($exclusive), true), "\n";
    $other->unlock($exclusive);
}
?>
--EXPECTF--
redis 8.6, shared: unlock true, key left on 0 servers, {"eval":3}
redis 8.6: lock() right after: true
valkey 9, shared: unlock true, key left on 0 servers, {"eval":3}
valkey 9: lock() right after: true
