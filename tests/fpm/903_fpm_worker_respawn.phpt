--TEST--
PHP-FPM: workers respawned by pm.max_requests (every 2 requests) start with an empty pool, lock and release; each old worker's connection is closed, none is left on the server
--EXTENSIONS--
redlock
--FILE--
<?php
require __DIR__ . '/../inc/fpm.inc';
$srv = rt_spawn_server();
[$p0, $p1] = rt_ports();
$key = rt_key();
$fpm = fpm_start(['pm.max_requests' => '2']);
$script = fpm_script($fpm, 'lock.php', <<<PHP
<?php
\$r = new RedLock([['127.0.0.1', {$srv['port']}, 5.0], ['127.0.0.1', $p0, 5.0], ['127.0.0.1', $p1, 5.0]], 10, 1);
\$lock = \$r->lock('$key-' . \$_GET['n'], 10000);
echo getmypid(), ' ', \$lock !== false ? 'locked' : 'not locked ' . json_encode(\$r->getLastErrors()),
    ' ', \$lock !== false && \$r->unlock(\$lock) ? 'released' : 'kept', "\\n";
PHP);
$base = rt_info($srv['port'], 'total_connections_received');
$clients = rt_info($srv['port'], 'connected_clients'); // ours
$pids = [];
for ($n = 1; $n <= 6; $n++) {
    $res = fcgi_get($fpm, $script, "n=$n");
    [$pid, $outcome] = explode(' ', trim($res['body']), 2);
    $pids[] = (int) $pid;
    echo "request $n: {$res['status']}, $outcome\n";
}
echo 'workers: ', count(array_unique($pids)), ', each served two in a row: ',
    $pids[0] === $pids[1] && $pids[2] === $pids[3] && $pids[4] === $pids[5] ? 'yes' : 'no', "\n";
echo 'connections accepted (one per worker): ', rt_info($srv['port'], 'total_connections_received') - $base, "\n";
// The third worker exited after its 2nd request too; its successor has not connected yet.
echo 'workers\' connections left on the server: ',
    rt_eventually(fn () => rt_info($srv['port'], 'connected_clients') === $clients, 10) ? 0 : rt_info($srv['port'], 'connected_clients') - $clients, "\n";
?>
--EXPECT--
request 1: complete, locked released
request 2: complete, locked released
request 3: complete, locked released
request 4: complete, locked released
request 5: complete, locked released
request 6: complete, locked released
workers: 3, each served two in a row: yes
connections accepted (one per worker): 3
workers' connections left on the server: 0
