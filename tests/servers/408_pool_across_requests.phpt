--TEST--
Persistent connections across requests of one worker (php -S): reused by the next request; a request that dies with a fatal error while a reply is in flight leaves its connection pooled with that reply owed: the next request drops the late reply and gets only its own
--EXTENSIONS--
redlock
--FILE--
<?php
require __DIR__ . '/../inc/redlock_test.inc';
$srv = rt_spawn_server();
$port = $srv['port'];
[$p0, $p1] = rt_ports();
$key = rt_key();
$connects = fn () => rt_info($port, 'total_connections_received');

$dir = sys_get_temp_dir() . '/redlock-408-' . getmypid();
@mkdir($dir);
file_put_contents("$dir/router.php", <<<PHP
<?php
// Two of two: the private server always answers, except in 'die' where it is paused on purpose.
\$servers = [
    'pair' => [['127.0.0.1', $p0, 5.0], ['127.0.0.1', $port, 5.0]],
    'die' => [['127.0.0.1', $p0, 0.5], ['127.0.0.1', $p1, 0.5], ['127.0.0.1', $port, 0.5]],
    'one' => [['127.0.0.1', $port, 5.0]],
][\$_GET['do']];
\$r = new RedLock(\$servers, 10, 1);
\$lock = \$r->lock('$key-' . \$_GET['n'], 10000);
\$errors = \$r->getLastErrors();
echo \$lock !== false && count(array_filter(\$errors, 'is_null')) > count(\$errors) / 2 ? 'locked' : json_encode(\$errors), "\\n";
if (\$_GET['do'] === 'die') {
    this_function_does_not_exist(); // fatal error: the request ends here, the pending SET still in flight
}
\$r->unlock(\$lock);
PHP);
$web = rt_free_port();
$ext = realpath(__DIR__ . '/../../modules/redlock.so');
$proc = proc_open([PHP_BINARY, '-d', "extension=$ext", '-d', 'display_errors=1', '-d', 'redlock.persistent=1',
    '-S', "127.0.0.1:$web", "$dir/router.php"], [0 => ['pipe', 'r'], 1 => ['file', '/dev/null', 'w'], 2 => ['file', '/dev/null', 'w']], $pipes);
$get = function (string $query) use ($web) {
    $ctx = stream_context_create(['http' => ['ignore_errors' => true, 'timeout' => 120]]);
    // Bounded by time: under valgrind (run-tests -m) php -S starts slowly.
    $deadline = microtime(true) + 120;
    while (microtime(true) < $deadline) {
        $body = @file_get_contents("http://127.0.0.1:$web/?$query", false, $ctx);
        if ($body !== false) {
            return trim(preg_replace('/\s+/', ' ', strip_tags($body)));
        }
        usleep(100000);
    }
    rt_fatal('php -S did not answer');
};
$base = $connects();
echo $get('do=pair&n=1'), "\n";
var_dump($connects() - $base);
echo $get('do=pair&n=2'), "\n";
var_dump($connects() - $base); // request 2 reused request 1's connection

rt_signal($srv, 'STOP');
echo $get('do=die&n=3'), "\n";
rt_signal($srv, 'CONT');
usleep(100000);
echo $get('do=one&n=4'), "\n";
var_dump($connects() - $base); // request 4 got that connection, dropped the late reply, locked
echo $get('do=one&n=5'), "\n";
var_dump($connects() - $base); // and request 5 again

// Wait (bounded) for php -S to exit: under valgrind it takes a while; then insist.
proc_terminate($proc);
$deadline = microtime(true) + 30;
while (proc_get_status($proc)['running'] && microtime(true) < $deadline) {
    usleep(50000);
}
if (proc_get_status($proc)['running']) {
    proc_terminate($proc, 9);
}
proc_close($proc);
@unlink("$dir/router.php");
@rmdir($dir);
?>
--EXPECTF--
locked
int(1)
locked
int(1)
locked %AFatal error: Uncaught Error: Call to undefined function this_function_does_not_exist()%A
locked
int(1)
locked
int(1)
