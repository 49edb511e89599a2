--TEST--
PHP-FPM: a request that max_execution_time kills while a paused server still owes a reply to its lock() leaves that connection pooled; the worker's next request drops the late "OK" instead of taking it for its own vote (a key held elsewhere stays not locked), and no thread is left in the worker
--EXTENSIONS--
redlock
--FILE--
<?php
require __DIR__ . '/../inc/fpm.inc';
$a = rt_spawn_server();
[$p0, $p1] = rt_ports();
$key = rt_key();
$fpm = fpm_start(['php_admin_value[max_execution_time]' => '3']); // CPU seconds: the warm-up may run under valgrind
// 'localhost' for the paused server: its connection goes through the resolver's lookup thread.
$script = fpm_script($fpm, 'lock.php', <<<PHP
<?php
\$r = new RedLock([['localhost', {$a['port']}, 0.5], ['127.0.0.1', $p0, 5.0], ['127.0.0.1', $p1, 5.0]], 10, 1);
\$lock = \$r->lock('$key-' . \$_GET['n'], 30000);
echo getmypid(), ' ', \$lock !== false ? 'locked' : 'not locked', "\\n";
if (\$_GET['n'] === 'die') {
    // CPU time: max_execution_time counts it (on Linux, waiting in lock() does not count).
    for (\$i = 0; ; \$i++) {}
}
if (\$lock !== false) {
    \$r->unlock(\$lock);
}
PHP);
$show = function (string $what, array $res) {
    preg_match('/^(\d+) (.*)$/m', $res['body'], $m);
    echo "$what: {$res['status']}, ", $m[2] ?? '?', str_contains($res['body'], 'Maximum execution time') ? ', Maximum execution time exceeded' : '', "\n";
    return (int) ($m[1] ?? 0);
};
$pid = $show('warm-up', fcgi_get($fpm, $script, 'n=warm'));
rt_signal($a, 'STOP');
// 3 s of CPU take a share of the cores: 60 s of wall time is not enough at a load of 25 on 2 cores
$show('lock() with the paused server\'s reply owed, then a CPU loop', fcgi_get($fpm, $script, 'n=die', 60.0 * rt_load_scale()));
// Held elsewhere on the paused server and on p0: only p1 can vote for request 'held'. Had the
// request taken the paused server's late "OK" (for 'die') as its own, it would count 2 of 3.
rt_redis($p0, 'SET', "$key-held", 'someone-else', 'PX', '30000');
rt_signal($a, 'CONT');
// Resumed, the server runs the request's queued SET and writes its reply before the next request: wait
// until its key is there (connected_clients alone was true at once, and once on Valkey 8.1 under load
// the next request began before the reply existed, found the owed reply overdue and reconnected).
rt_eventually(fn () => rt_redis($a['port'], 'GET', "$key-die") !== null, 5);
rt_redis($a['port'], 'SET', "$key-held", 'someone-else', 'PX', '30000');
$accepted = rt_info($a['port'], 'total_connections_received');
$same = $show('a key held elsewhere', fcgi_get($fpm, $script, 'n=held')) === $pid;
echo 'it went over the pooled connection that owed the late reply: ',
    rt_info($a['port'], 'total_connections_received') === $accepted ? 'yes' : 'no', "\n";
echo 'values of it on the two servers: ', rt_redis($a['port'], 'GET', "$key-held"), ' ', rt_redis($p0, 'GET', "$key-held"), "\n";
$same = $show('a free key', fcgi_get($fpm, $script, 'n=free')) === $pid && $same;
echo 'all on the same worker: ', $same ? 'yes' : 'no', "\n";
$threads = fn () => count(glob("/proc/$pid/task/*"));
echo 'threads in the worker: ', rt_eventually(fn () => $threads() === 1, 10) ? 1 : $threads(), "\n";
?>
--EXPECT--
warm-up: complete, locked
lock() with the paused server's reply owed, then a CPU loop: complete, locked, Maximum execution time exceeded
a key held elsewhere: complete, not locked
it went over the pooled connection that owed the late reply: yes
values of it on the two servers: someone-else someone-else
a free key: complete, locked
all on the same worker: yes
threads in the worker: 1
