--TEST--
Native release: unlock() uses DELEX on Redis 8.6 and DELIFEQ on Valkey 9 (learnt from the probes pipelined on connect), the script on Redis 7.0; in a mixed cluster each server gets its own; the compare-and-delete keeps its meaning (another token deletes nothing); extend() stays a script
--EXTENSIONS--
redlock
--INI--
redlock.persistent=0
--SKIPIF--
<?php require __DIR__ . '/native.inc'; nt_skip_without_servers(); ?>
--FILE--
<?php
require __DIR__ . '/native.inc';
$redis = nt_ports('redis');
$valkey = nt_ports('valkey');
$old = rt_spawn_server(); // Debian 12's redis-server 7.0: no DELEX, no DELIFEQ
$key = rt_key();
$commands = ['delex', 'delifeq', 'evalsha', 'eval'];

foreach (['redis 8.6' => $redis, 'valkey 9' => $valkey, 'redis 7.0' => [$old['port']]] as $name => $ports) {
    $servers = array_map(fn ($p) => ['127.0.0.1', $p, 10.0], $ports);
    $stats = nt_count($ports, $commands, function () use ($servers, $key, $ports) {
        $redlock = new RedLock($servers, 10, 1);
        for ($i = 0; $i < 10; $i++) {
            $lock = $redlock->lock("$key-$i", 10000);
            // Wait for every SET (lock() returns at a majority), so that unlock() finds them all.
            rt_eventually(fn () => count(array_filter(array_map(fn ($p) => rt_redis($p, 'GET', "$key-$i"), $ports))) === count($ports), 5);
            $ok = $redlock->unlock($lock);
            rt_eventually(fn () => count(array_filter(array_map(fn ($p) => rt_redis($p, 'GET', "$key-$i"), $ports))) === 0, 5);
            if (!$ok) {
                echo "unlock failed\n";
            }
        }
    });
    // Each connection made one probe of each command it has (the probe deletes nothing), then released
    // natively. The first release may go by script: a connection picks DELEX/DELIFEQ once it has read the
    // probe's reply, and a reply that arrives after lock() returned (a loaded machine) is read only when
    // the next call finds it there; it is never waited for.
    $per = array_map(function ($s) {
        $native = $s['delex'] + $s['delifeq'];
        if ($native > 0 && $s['evalsha'] === 0 && $s['eval'] <= 1 && $native + $s['eval'] === 11) {
            $s[$s['delex'] > 0 ? 'delex' : 'delifeq'] = 11; // the counts as every release native
            $s['eval'] = 0;
        }
        return json_encode($s);
    }, $stats);
    echo "$name: ", implode(' ', array_unique($per)), "\n";
}

// Another token deletes nothing; ours deletes ours.
foreach (['redis 8.6' => $redis, 'valkey 9' => $valkey] as $name => $ports) {
    $redlock = new RedLock(array_map(fn ($p) => ['127.0.0.1', $p, 10.0], $ports), 10, 1);
    $lock = $redlock->lock("$key-x", 10000);
    $redlock->unlock($lock); // the connections now know what the servers have
    $lock = $redlock->lock("$key-x", 10000);
    rt_eventually(fn () => count(array_filter(array_map(fn ($p) => rt_redis($p, 'GET', "$key-x"), $ports))) === 3, 5);
    $forged = ['resource' => "$key-x", 'token' => str_repeat('0', 32)];
    $stats = nt_count($ports, $commands, function () use ($redlock, $forged, $lock, &$results) {
        $results = [$redlock->unlock($forged), $redlock->unlock($lock)];
    });
    rt_eventually(fn () => count(array_filter(array_map(fn ($p) => rt_redis($p, 'GET', "$key-x"), $ports))) === 0, 5);
    echo "$name: forged ", var_export($results[0], true), ", ours ", var_export($results[1], true), ', ',
        json_encode(array_values($stats)[0]), "\n";
    // extend() stays the script: a native SET ... IFEQ ... PX could shorten a key.
    $lock = $redlock->lock("$key-e", 10000);
    $stats = nt_count($ports, $commands, fn () => $redlock->extend($lock, 20000));
    echo "$name extend: ", json_encode(array_values($stats)[0]), ", pttl > 10000: ",
        var_export(rt_redis($ports[0], 'PTTL', "$key-e") > 10000, true), "\n";
    $redlock->unlock($lock);
}

// A mixed cluster: each connection uses what its own server has.
$mixed = [$redis[0], $valkey[0], $old['port']];
$redlock = new RedLock(array_map(fn ($p) => ['127.0.0.1', $p, 10.0], $mixed), 10, 1);
$warm = $redlock->lock("$key-m0", 10000);
rt_eventually(fn () => count(array_filter(array_map(fn ($p) => rt_redis($p, 'GET', "$key-m0"), $mixed))) === 3, 5);
$redlock->unlock($warm);
$lock = $redlock->lock("$key-m", 10000);
rt_eventually(fn () => count(array_filter(array_map(fn ($p) => rt_redis($p, 'GET', "$key-m"), $mixed))) === 3, 5);
$stats = nt_count($mixed, $commands, function () use ($redlock, $lock, $mixed, $key) {
    $redlock->unlock($lock);
    rt_eventually(fn () => count(array_filter(array_map(fn ($p) => rt_redis($p, 'GET', "$key-m"), $mixed))) === 0, 5);
});
foreach ($stats as $stat) {
    echo "mixed: ", json_encode($stat), "\n";
}
?>
--EXPECT--
redis 8.6: {"delex":11,"delifeq":0,"evalsha":0,"eval":0}
valkey 9: {"delex":0,"delifeq":11,"evalsha":0,"eval":0}
redis 7.0: {"delex":0,"delifeq":0,"evalsha":0,"eval":10}
redis 8.6: forged false, ours true, {"delex":2,"delifeq":0,"evalsha":0,"eval":0}
redis 8.6 extend: {"delex":0,"delifeq":0,"evalsha":0,"eval":1}, pttl > 10000: true
valkey 9: forged false, ours true, {"delex":0,"delifeq":2,"evalsha":0,"eval":0}
valkey 9 extend: {"delex":0,"delifeq":0,"evalsha":0,"eval":1}, pttl > 10000: true
mixed: {"delex":1,"delifeq":0,"evalsha":0,"eval":0}
mixed: {"delex":0,"delifeq":1,"evalsha":0,"eval":0}
mixed: {"delex":0,"delifeq":0,"evalsha":0,"eval":1}
