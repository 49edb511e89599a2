--TEST--
Swoole: one coroutine's uncaught exception or exit() ends the worker while other coroutines are inside run() (two objects, autoExtend or not), and one request's uncaught exception in a real Swoole\Http\Server while two other requests are inside run(): their locks are released before the process ends, not left for their ttl
--EXTENSIONS--
redlock
--SKIPIF--
<?php require __DIR__ . '/coroutines.inc'; co_skip_without_swoole(); ?>
--FILE--
<?php
require __DIR__ . '/coroutines.inc';
$servers = var_export(rt_servers(5, 3.0), true);
$php = 'env -u USE_ZEND_ALLOC ' . PHP_BINARY . ' ' . (getenv('TEST_PHP_EXTRA_ARGS') ?: '') . ' -d display_errors=1 -d log_errors=0';
$endings = [
    'an uncaught exception' => 'throw new RuntimeException("a coroutine failed")',
    'exit()' => 'exit(3)',
];
foreach ($endings as $name => $ending) {
    $keys = [rt_key("$name:a"), rt_key("$name:b"), rt_key("$name:c")];
    // Three coroutines inside run() (60 s ttl) on two objects; a fourth ends the worker.
    $code = 'require ' . var_export(__DIR__ . '/coroutines.inc', true) . '; use Swoole\Coroutine;'
        . ' $objects = [new RedLock(' . $servers . ', 10, 1), new RedLock(' . $servers . ', 10, 1, ["autoExtend" => true])];'
        . ' $keys = ' . var_export($keys, true) . ';'
        . ' co_run(function () use ($objects, $keys) {'
        . '   foreach ($keys as $i => $key) {'
        . '     Coroutine::create(fn () => $objects[$i % 2]->run($key, 60000, function () { echo "locked\n"; Coroutine::sleep(30); }));'
        . '   }'
        . '   Coroutine::create(function () { Coroutine::sleep(0.3); ' . $ending . '; });'
        . ' });'
        . ' echo "not reached\n";';
    $start = microtime(true);
    $proc = proc_open("exec $php -r " . escapeshellarg($code), [1 => ['pipe', 'w'], 2 => ['pipe', 'w']], $pipes);
    $out = stream_get_contents($pipes[1]) . stream_get_contents($pipes[2]);
    $status = proc_close($proc);
    $seconds = microtime(true) - $start;
    $values = array_map(fn ($key) => rt_values($key), $keys); // right after the worker is gone
    preg_match('/(Fatal error: .*?) in /', $out, $fatal);
    echo "$name: ", $fatal[1] ?? 'no fatal error', "\n";
    echo '  all 3 locked: ', substr_count($out, "locked\n") === 3 ? 'yes' : "no\n$out",
        ', gone from a majority at once: ', min(array_map(fn ($v) => count(array_filter($v, fn ($x) => $x === null)), $values)) >= 3 ? 'yes' : 'no',
        ', from all 5: ', rt_eventually(fn () => array_map(fn ($key) => rt_values($key), $keys) === array_fill(0, 3, array_fill(0, 5, null))) ? 'yes' : 'no',
        ', within the ttl: ', $seconds < 50 ? 'yes' : 'no', "\n";
}

// A real Swoole\Http\Server (one worker, coroutines on): two requests inside run(), a third throws.
$httpPort = rt_free_port();
$keys = [rt_key('http:a'), rt_key('http:b')];
$server = '<?php require ' . var_export(__DIR__ . '/coroutines.inc', true) . ';'
    . ' $http = new Swoole\Http\Server("127.0.0.1", ' . $httpPort . ', SWOOLE_BASE);'
    . ' $http->set(["worker_num" => 1, "enable_coroutine" => true, "hook_flags" => SWOOLE_HOOK_ALL & ~(SWOOLE_HOOK_NATIVE_CURL | SWOOLE_HOOK_CURL), "log_level" => SWOOLE_LOG_ERROR]);'
    . ' $r = null;'
    . ' $http->on("workerStart", function () use (&$r) { $r = new RedLock(' . $servers . ', 10, 1); });'
    . ' $http->on("request", function ($req, $resp) use (&$r) {'
    . '   if (isset($req->get["k"])) { $r->run($req->get["k"], 60000, function () use ($resp) { $resp->end("locked"); Swoole\Coroutine::sleep(30); }); }'
    . '   else { $resp->end("failing"); throw new RuntimeException("a request failed"); }'
    . ' });'
    . ' $http->start();';
$file = sys_get_temp_dir() . '/redlock-931-' . getmypid() . '.php';
file_put_contents($file, $server);
$start = microtime(true);
$proc = proc_open("exec $php " . escapeshellarg($file), [1 => ['pipe', 'w'], 2 => ['pipe', 'w']], $pipes);
$get = function (string $path) use ($httpPort): string {
    // until the server listens: a hang guard (5 s idle; a server under valgrind beside a busy machine took longer)
    $until = microtime(true) + 5 * rt_time_scale() * rt_load_scale();
    while (!($s = @stream_socket_client("tcp://127.0.0.1:$httpPort", $e, $m, 1)) && microtime(true) < $until) {
        usleep(50000);
    }
    if (!$s) {
        return 'no server';
    }
    stream_set_timeout($s, (int) (10 * rt_time_scale()));
    fwrite($s, "GET $path HTTP/1.1\r\nHost: x\r\n\r\n");
    $reply = '';
    while (!str_contains($reply, "\r\n\r\n") || !preg_match('/(locked|failing)$/', $reply)) {
        if (($chunk = fread($s, 8192)) === '' || $chunk === false) {
            break;
        }
        $reply .= $chunk;
    }
    return preg_match('/(locked|failing)$/', $reply, $m) ? $m[1] : 'no reply';
};
$replies = [$get('/?k=' . urlencode($keys[0])), $get('/?k=' . urlencode($keys[1])), $get('/fail')];
$out = stream_get_contents($pipes[1]) . stream_get_contents($pipes[2]); // until the worker is gone
proc_close($proc);
unlink($file);
$seconds = microtime(true) - $start;
$values = array_map(fn ($key) => rt_values($key), $keys);
preg_match('/(Fatal error: .*?) in /', $out, $fatal);
echo 'http server: ', implode(', ', $replies), '; ', $fatal[1] ?? "no fatal error\n$out", "\n";
echo '  gone from a majority at once: ', min(array_map(fn ($v) => count(array_filter($v, fn ($x) => $x === null)), $values)) >= 3 ? 'yes' : 'no',
    ', from all 5: ', rt_eventually(fn () => array_map(fn ($key) => rt_values($key), $keys) === array_fill(0, 2, array_fill(0, 5, null))) ? 'yes' : 'no',
    ', within the ttl: ', $seconds < 50 ? 'yes' : 'no', "\n";
?>
--EXPECT--
an uncaught exception: Fatal error: Uncaught RuntimeException: a coroutine failed
  all 3 locked: yes, gone from a majority at once: yes, from all 5: yes, within the ttl: yes
exit(): Fatal error: Uncaught Swoole\ExitException: swoole exit
  all 3 locked: yes, gone from a majority at once: yes, from all 5: yes, within the ttl: yes
http server: locked, locked, failing; Fatal error: Uncaught RuntimeException: a request failed
  gone from a majority at once: yes, from all 5: yes, within the ttl: yes
