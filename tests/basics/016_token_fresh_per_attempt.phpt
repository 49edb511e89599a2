--TEST--
Every attempt of a lock() call has a fresh token, and its release carries that attempt's token only; the next call uses new ones
--EXTENSIONS--
redlock
--FILE--
<?php
require __DIR__ . '/../inc/redlock_test.inc';
$server = rt_spawn_server();
$port = $server['port'];
$key = rt_key();
rt_redis($port, 'SET', $key, 'foreign', 'PX', '60000');

$monitor = stream_socket_client("tcp://127.0.0.1:$port", $errno, $errstr, 2.0);
fwrite($monitor, "MONITOR\r\n");
var_dump(fgets($monitor));

/** Tokens of the SET and EVAL commands on $key seen by MONITOR, until $want of them or 3 s; also
 * their order as "S<token>"/"E<token>". */
function seen(mixed $monitor, string $key, int $want): array
{
    $found = ['SET' => [], 'EVAL' => [], 'order' => []];
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
            $found['order'][] = 'S' . $args[2];
        } elseif (($args[0] ?? '') === 'EVAL' && ($args[3] ?? '') === $key) {
            $found['EVAL'][] = $args[4];
            $found['order'][] = 'E' . $args[4];
        }
    }
    return $found;
}

/** Each attempt: SET with a token never seen before, then the release with that same token. */
function paired(array $found): bool
{
    $expect = [];
    foreach ($found['SET'] as $token) {
        $expect[] = 'S' . $token;
        $expect[] = 'E' . $token;
    }
    return $found['order'] === $expect;
}

$redlock = new RedLock([['127.0.0.1', $port, 2.0]], 10, 3);
var_dump($redlock->lock($key, 10000));
$first = seen($monitor, $key, 6);
echo "SETs: ", count($first['SET']), ", releases: ", count($first['EVAL']), "\n";
echo "distinct tokens: ", count(array_unique($first['SET'])), "\n";
echo "each release follows its own SET: ", var_export(paired($first), true), "\n";

var_dump($redlock->lock($key, 10000));
$second = seen($monitor, $key, 6);
echo "distinct tokens: ", count(array_unique($second['SET'])), "\n";
echo "each release follows its own SET: ", var_export(paired($second), true), "\n";
echo "no token of the first call again: ", var_export(array_intersect($first['SET'], $second['SET']) === [], true), "\n";
// The foreign key was never touched.
var_dump(rt_redis($port, 'GET', $key));
?>
--EXPECT--
string(5) "+OK
"
bool(false)
SETs: 3, releases: 3
distinct tokens: 3
each release follows its own SET: true
bool(false)
distinct tokens: 3
each release follows its own SET: true
no token of the first call again: true
string(7) "foreign"
