--TEST--
All attempts of one lock() call, and their releases, use the same token; the next call uses a new one
--EXTENSIONS--
redlock
--FILE--
<?php
require __DIR__ . '/redlock_test.inc';
$server = rt_spawn_server();
$port = $server['port'];
$key = rt_key();
rt_redis($port, 'SET', $key, 'foreign', 'PX', '60000');

$monitor = stream_socket_client("tcp://127.0.0.1:$port", $errno, $errstr, 2.0);
fwrite($monitor, "MONITOR\r\n");
var_dump(fgets($monitor));

/** Tokens of the SET and EVAL commands on $key seen by MONITOR, until $want of them or 3 s. */
function seen(mixed $monitor, string $key, int $want): array
{
    $found = ['SET' => [], 'EVAL' => []];
    stream_set_timeout($monitor, 0, 200000);
    $deadline = microtime(true) + 3;
    while (count($found['SET']) + count($found['EVAL']) < $want && microtime(true) < $deadline) {
        $line = fgets($monitor);
        if ($line === false) {
            continue;
        }
        preg_match_all('/"((?:[^"\\\\]|\\\\.)*)"/', $line, $m);
        $args = $m[1];
        if (($args[0] ?? '') === 'SET' && ($args[1] ?? '') === $key) {
            $found['SET'][] = $args[2];
        } elseif (($args[0] ?? '') === 'EVAL' && ($args[3] ?? '') === $key) {
            $found['EVAL'][] = $args[4];
        }
    }
    return $found;
}

$redlock = new RedLock([['127.0.0.1', $port, 2.0]], 10, 3);
var_dump($redlock->lock($key, 10000));
$first = seen($monitor, $key, 6);
echo "SETs: ", count($first['SET']), ", releases: ", count($first['EVAL']), "\n";
echo "one token: ", var_export(count(array_unique(array_merge($first['SET'], $first['EVAL']))) === 1, true), "\n";

var_dump($redlock->lock($key, 10000));
$second = seen($monitor, $key, 6);
echo "one token: ", var_export(count(array_unique(array_merge($second['SET'], $second['EVAL']))) === 1, true), "\n";
echo "a new token: ", var_export($second['SET'][0] !== $first['SET'][0], true), "\n";
?>
--EXPECT--
string(5) "+OK
"
bool(false)
SETs: 3, releases: 3
one token: true
bool(false)
one token: true
a new token: true
