--TEST--
Swoole: a real Swoole\Http\Server, 2 workers, coroutines on: 200 concurrent requests each take one lock (waitTimeout) around the README's stock demo (read the stock, yield, write it less one) on a stock of 150: exactly 150 sold, stock exactly 0, 50 told "sold out" (40 on 30 under a memory checker), no request failed
--EXTENSIONS--
redlock
--SKIPIF--
<?php require __DIR__ . '/coroutines.inc'; co_skip_without_swoole(); ?>
--FILE--
<?php
require __DIR__ . '/coroutines.inc';
use Swoole\Coroutine;

/** One command on a connection of its own (requests run in coroutines at once: no shared socket). */
function stock_redis(int $port, string ...$args): mixed
{
    $link = stream_socket_client("tcp://127.0.0.1:$port", $errno, $errstr, 2.0);
    $out = '*' . count($args) . "\r\n";
    foreach ($args as $a) {
        $out .= '$' . strlen($a) . "\r\n$a\r\n";
    }
    fwrite($link, $out);
    $reply = rt_read_reply($link);
    fclose($link);
    return $reply;
}

$port0 = rt_ports()[0];
$stockKey = rt_key('stock');
$soldKey = rt_key('sold');
$lockKey = rt_key('lock');
/* Under a memory checker every request is 20-50x slower: fewer of them (the same race, the same check). */
[$requests, $stock] = co_checked() ? [40, 30] : [200, 150];
stock_redis($port0, 'SET', $stockKey, (string) $stock);
stock_redis($port0, 'SET', $soldKey, '0');
$httpPort = rt_free_port();
$results = sys_get_temp_dir() . '/redlock-927-' . getmypid() . '.txt';
@unlink($results);

/* The client: 200 requests at once over plain sockets, another process without extensions. */
$client = <<<'PHP'
<?php
[$port, $count, $out] = [(int) $argv[1], (int) $argv[2], $argv[3]];
$socks = [];
for ($i = 0; $i < $count; $i++) {
    $s = stream_socket_client("tcp://127.0.0.1:$port", $e, $m, 5);
    stream_set_blocking($s, false);
    fwrite($s, "GET /buy HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n");
    $socks[$i] = $s;
}
$bodies = array_fill(0, $count, '');
$deadline = microtime(true) + 60;
while ($socks && microtime(true) < $deadline) {
    $r = array_values($socks); $w = $x = null;
    if (stream_select($r, $w, $x, 1) === false) { break; }
    foreach ($socks as $i => $s) {
        $chunk = fread($s, 8192);
        if ($chunk !== '' && $chunk !== false) { $bodies[$i] .= $chunk; }
        if (feof($s)) { fclose($s); unset($socks[$i]); }
    }
}
$tally = [];
foreach ($bodies as $b) {
    $body = trim(substr($b, (int) strpos($b, "\r\n\r\n")));
    $tally[$body === '' ? '(no answer)' : $body] = ($tally[$body === '' ? '(no answer)' : $body] ?? 0) + 1;
}
ksort($tally);
$s = stream_socket_client("tcp://127.0.0.1:$port", $e, $m, 5);
fwrite($s, "GET /shutdown HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n");
stream_get_contents($s);
file_put_contents($out, json_encode($tally));
PHP;
$clientFile = sys_get_temp_dir() . '/redlock-927-client-' . getmypid() . '.php';
file_put_contents($clientFile, $client);

$servers = rt_servers(3);
$http = new Swoole\Http\Server('127.0.0.1', $httpPort, SWOOLE_PROCESS);
$flags = SWOOLE_HOOK_ALL & ~(SWOOLE_HOOK_NATIVE_CURL | SWOOLE_HOOK_CURL);
$http->set(['worker_num' => 2, 'enable_coroutine' => true, 'hook_flags' => $flags, 'log_level' => SWOOLE_LOG_ERROR,
    'max_wait_time' => 5, 'backlog' => 512]);
$http->on('workerStart', function ($server, int $id) {
    Swoole\Timer::after(90000, fn () => $server->shutdown()); // bound: whatever happens to the client
});
$http->on('start', function ($server) use ($clientFile, $httpPort, $results, $requests) {
    /* the client starts once the server listens */
    exec(escapeshellarg(PHP_BINARY) . ' -n ' . escapeshellarg($clientFile) . " $httpPort $requests " . escapeshellarg($results)
        . ' > /dev/null 2>&1 &');
});
$http->on('request', function ($request, $response) use ($servers, $port0, $stockKey, $soldKey, $lockKey, $http) {
    static $redlock = null;
    if ($request->server['request_uri'] === '/shutdown') {
        $response->end('bye');
        $http->shutdown();
        return;
    }
    $redlock ??= new RedLock($servers, 50, 3, ['waitTimeout' => 45000]); // one object per worker
    $lock = $redlock->lock($lockKey, 5000);
    if ($lock === false) {
        $response->end('no lock');
        return;
    }
    $stock = (int) stock_redis($port0, 'GET', $stockKey);
    if ($stock > 0) {
        Coroutine::sleep(0.001);                                   // the demo's race window
        stock_redis($port0, 'SET', $stockKey, (string) ($stock - 1));
        stock_redis($port0, 'INCR', $soldKey);
        $answer = 'sold';
    } else {
        $answer = 'sold out';
    }
    $redlock->unlock($lock);
    $response->end($answer);
});
/* Bound, even when the workers are stuck (f334b16): SIGTERM to this process, the master, after 50 s
 * (a timer in the master would stall it); the manager kills workers 5 s later (max_wait_time). */
$master = getmypid();
$bound = co_checked() ? 250 : 50;
exec("(sleep $bound; kill -0 $master 2>/dev/null && kill -TERM $master) > /dev/null 2>&1 &");
$http->start();
$tally = json_decode((string) @file_get_contents($results), true) ?: ['the client did not finish' => 1];
echo ($tally['sold'] ?? 0) === $stock && ($tally['sold out'] ?? 0) === $requests - $stock && count($tally) === 2
    ? "every request answered: the stock sold, the rest told sold out\n" : json_encode($tally) . "\n";
echo 'stock ', stock_redis($port0, 'GET', $stockKey), ', sold ', stock_redis($port0, 'GET', $soldKey) === (string) $stock
    ? 'exactly the stock' : stock_redis($port0, 'GET', $soldKey), "\n";
@unlink($results);
@unlink($clientFile);
?>
--EXPECT--
every request answered: the stock sold, the rest told sold out
stock 0, sold exactly the stock
