--TEST--
Bad $servers: ValueError/TypeError naming the argument and the server
--EXTENSIONS--
redlock
--FILE--
<?php
$ok = ['127.0.0.1', 6379, 0.5];
$cases = [
    'no servers' => [],
    'string instead of array' => ['127.0.0.1:6379'],
    'missing port' => [['127.0.0.1']],
    'port as non-numeric string' => [['127.0.0.1', '6379abc', 0.5]],
    'host as int' => [[127001, 6379, 0.5]],
    '4 elements' => [['127.0.0.1', 6379, 0.5, 1]],
    'named keys' => [['host' => '127.0.0.1', 'port' => 6379]],
    'empty host' => [['', 6379, 0.5]],
    'port 0' => [['127.0.0.1', 0, 0.5]],
    'port 65536' => [['127.0.0.1', 65536, 0.5]],
    'negative timeout' => [['127.0.0.1', 6379, -1.0]],
    'NaN timeout' => [['127.0.0.1', 6379, NAN]],
    'INF timeout' => [['127.0.0.1', 6379, INF]],
    'string timeout' => [['127.0.0.1', 6379, 'soon']],
    'third server bad' => [$ok, $ok, ['127.0.0.1', 70000, 0.5]],
];
foreach ($cases as $name => $servers) {
    try {
        new RedLock($servers);
        echo "$name: accepted\n";
    } catch (Throwable $e) {
        echo "$name: ", get_class($e), ": ", $e->getMessage(), "\n";
    }
}
// Accepted forms: timeout omitted, int timeout, null timeout (defaults), 0 = no timeout.
foreach ([[['127.0.0.1', 6379]], [['127.0.0.1', 6379, 1]], [['127.0.0.1', 6379, null]], [['127.0.0.1', 6379, 0]]] as $servers) {
    var_dump(new RedLock($servers) instanceof RedLock);
}
?>
--EXPECT--
no servers: ValueError: RedLock::__construct(): Argument #1 ($servers) must contain at least one server
string instead of array: ValueError: RedLock::__construct(): Argument #1 ($servers) server #0 URI must start with redis://, rediss://, unix://, sentinel://, sentinels://, cluster://, clusters:// or memory://
missing port: ValueError: RedLock::__construct(): Argument #1 ($servers) server #0 must be a list [host, port, timeout]
port as non-numeric string: TypeError: RedLock::__construct(): Argument #1 ($servers) server #0 port must be of type int, string given
host as int: TypeError: RedLock::__construct(): Argument #1 ($servers) server #0 host must be of type string, int given
4 elements: accepted
named keys: accepted
empty host: ValueError: RedLock::__construct(): Argument #1 ($servers) server #0 host must be a non-empty string without NUL bytes
port 0: ValueError: RedLock::__construct(): Argument #1 ($servers) server #0 port must be between 1 and 65535
port 65536: ValueError: RedLock::__construct(): Argument #1 ($servers) server #0 port must be between 1 and 65535
negative timeout: ValueError: RedLock::__construct(): Argument #1 ($servers) server #0 timeout must be between 0 and 60 seconds
NaN timeout: ValueError: RedLock::__construct(): Argument #1 ($servers) server #0 timeout must be between 0 and 60 seconds
INF timeout: ValueError: RedLock::__construct(): Argument #1 ($servers) server #0 timeout must be between 0 and 60 seconds
string timeout: TypeError: RedLock::__construct(): Argument #1 ($servers) server #0 timeout must be of type float, string given
third server bad: ValueError: RedLock::__construct(): Argument #1 ($servers) server #2 port must be between 1 and 65535
bool(true)
bool(true)
bool(true)
bool(true)
