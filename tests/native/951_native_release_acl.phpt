--TEST--
Native release: an ACL user that may not run DELEX/DELIFEQ gets NOPERM for the probes and keeps releasing through the script (no failed unlock); the probes never delete a key of that name
--EXTENSIONS--
redlock
--INI--
redlock.persistent=0
--SKIPIF--
<?php require __DIR__ . '/native.inc'; nt_skip_without_servers(); ?>
--FILE--
<?php
require __DIR__ . '/native.inc';
$ports = [nt_ports('redis')[0], nt_ports('valkey')[0]];
$key = rt_key();
$password = 'pw-' . bin2hex(random_bytes(6));
foreach ($ports as $i => $p) {
    // Each server knows only its own command: naming the other one is an ACL error.
    $set = rt_redis($p, 'ACL', 'SETUSER', 'nodelex', 'reset', 'on', ">$password", '~*', '+@all', $i === 0 ? '-delex' : '-delifeq');
    if ($set !== 'OK') {
        rt_fatal('ACL SETUSER: ' . ($set instanceof Throwable ? $set->getMessage() : var_export($set, true)));
    }
    rt_redis($p, 'SET', 'redlock:native-release-probe', '-'); // the probes compare with '-': would match
}
foreach ($ports as $p) {
    $stats = nt_count([$p], ['delex', 'delifeq', 'eval'], function () use ($p, $key, $password, &$results) {
        $redlock = new RedLock(["redis://nodelex:$password@127.0.0.1:$p?timeout=10"], 10, 1);
        $results = [];
        for ($i = 0; $i < 3; $i++) {
            $lock = $redlock->lock("$key-$i", 10000);
            $results[] = $lock !== false && $redlock->unlock($lock) && rt_redis($p, 'GET', "$key-$i") === null;
        }
    });
    echo json_encode($results), ' ', json_encode($stats[$p]), "\n";
}
// The probe key holds '-', which a probe that ran would have deleted (so its name is one nobody
// uses): NOPERM kept it.
foreach ($ports as $p) {
    var_dump(rt_redis($p, 'GET', 'redlock:native-release-probe'));
    rt_redis($p, 'DEL', 'redlock:native-release-probe');
    rt_redis($p, 'ACL', 'DELUSER', 'nodelex');
}
?>
--EXPECT--
[true,true,true] {"delex":0,"delifeq":0,"eval":3}
[true,true,true] {"delex":0,"delifeq":0,"eval":3}
string(1) "-"
string(1) "-"
