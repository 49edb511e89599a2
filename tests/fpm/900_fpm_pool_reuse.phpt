--TEST--
PHP-FPM: one worker serves 5 requests over one pooled connection per server (the server sees one connection, not five)
--EXTENSIONS--
redlock
--FILE--
<?php
require __DIR__ . '/../inc/fpm.inc';
$srv = rt_spawn_server();
[$p0, $p1] = rt_ports();
$key = rt_key();
$fpm = fpm_start();
$script = fpm_script($fpm, 'lock.php', <<<PHP
<?php
\$r = new RedLock([['127.0.0.1', {$srv['port']}, 5.0], ['127.0.0.1', $p0, 5.0], ['127.0.0.1', $p1, 5.0]], 10, 1);
\$lock = \$r->lock('$key-' . \$_GET['n'], 10000);
echo getmypid(), ' ', \$lock !== false ? 'locked' : 'not locked ' . json_encode(\$r->getLastErrors()),
    ' ', \$lock !== false && \$r->unlock(\$lock) ? 'released' : 'kept', "\\n";
PHP);
$connections = fn () => rt_info($srv['port'], 'total_connections_received');
$base = $connections();
$pids = [];
for ($n = 1; $n <= 5; $n++) {
    $res = fcgi_get($fpm, $script, "n=$n");
    [$pid, $outcome] = explode(' ', trim($res['body']), 2);
    $pids[$pid] = true;
    echo "request $n: {$res['status']}, $outcome\n";
}
echo 'workers that served them: ', count($pids), "\n";
echo 'connections the server accepted for them: ', $connections() - $base, "\n";
echo 'connected now (the idle pooled one and ours): ', rt_info($srv['port'], 'connected_clients'), "\n";
?>
--EXPECT--
request 1: complete, locked released
request 2: complete, locked released
request 3: complete, locked released
request 4: complete, locked released
request 5: complete, locked released
workers that served them: 1
connections the server accepted for them: 1
connected now (the idle pooled one and ours): 2
