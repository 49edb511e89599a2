--TEST--
PHP-FPM: a request killed by request_terminate_timeout in the middle of lock() (two of three servers paused): the master respawns the worker, the killed worker's connections close, and the next request locks and releases
--EXTENSIONS--
redlock
--FILE--
<?php
require __DIR__ . '/../inc/fpm.inc';
$a = rt_spawn_server();
$b = rt_spawn_server();
[$p0] = rt_ports();
$key = rt_key();
$fpm = fpm_start(['request_terminate_timeout' => '5s']); // generous: the warm-up may run under valgrind
$script = fpm_script($fpm, 'lock.php', <<<PHP
<?php
// 60 s per server: only request_terminate_timeout can end the paused call.
\$r = new RedLock([['127.0.0.1', {$a['port']}, 60.0], ['127.0.0.1', {$b['port']}, 60.0], ['127.0.0.1', $p0, 60.0]], 10, 1);
\$lock = \$r->lock('$key-' . \$_GET['n'], 30000);
echo getmypid(), ' ', \$lock !== false ? 'locked' : 'not locked ' . json_encode(\$r->getLastErrors()),
    ' ', \$lock !== false && \$r->unlock(\$lock) ? 'released' : 'kept', "\\n";
PHP);
$show = function (string $what, array $res) {
    $parts = explode(' ', trim($res['body']), 2);
    echo "$what: {$res['status']}", isset($parts[1]) ? ", {$parts[1]}" : '', "\n";
    return (int) $parts[0];
};
$before = $show('warm-up request', fcgi_get($fpm, $script, 'n=1'));
$clients = rt_info($a['port'], 'connected_clients'); // the worker's pooled connection and ours

rt_signal($a, 'STOP');
rt_signal($b, 'STOP');
$show('request in lock() on two paused servers', fcgi_get($fpm, $script, 'n=2', 60));
rt_signal($a, 'CONT');
rt_signal($b, 'CONT');
echo 'the master killed it: ', rt_eventually(fn () => preg_match('/child \d+ .*exited on signal|execution timed out/',
    (string) @file_get_contents($fpm['log'])) === 1, 30) ? 'yes' : 'no', "\n";
echo 'the killed worker\'s connection closed on the server: ',
    rt_eventually(fn () => rt_info($a['port'], 'connected_clients') <= $clients - 1, 30) ? 'yes' : 'no', "\n";

$after = $show('next request', fcgi_get($fpm, $script, 'n=3'));
echo 'served by a new worker: ', $after !== $before && $after > 0 ? 'yes' : 'no', "\n";
$show('and the next', fcgi_get($fpm, $script, 'n=4'));
echo 'connections on the server now: the new worker\'s and ours: ', rt_info($a['port'], 'connected_clients') === $clients ? 'yes' : 'no', "\n";
?>
--EXPECT--
warm-up request: complete, locked released
request in lock() on two paused servers: closed
the master killed it: yes
the killed worker's connection closed on the server: yes
next request: complete, locked released
served by a new worker: yes
and the next: complete, locked released
connections on the server now: the new worker's and ours: yes
