--TEST--
$servers: ports, timeouts (and keyed databases) as numeric strings, read as PHP's coercive mode reads an int/float argument; extra list elements ignored, as the PHP library does
--EXTENSIONS--
redlock
--FILE--
<?php
require __DIR__ . '/../inc/redlock_test.inc';
[[$host, $port]] = rt_endpoints();
$describe = fn (RedLock $r) => print_r($r, true);
$accepted = [
    'numeric string' => [$host, (string) $port, '0.5'],
    'leading whitespace' => [$host, " $port", ' 0.5'],
    'trailing whitespace' => [$host, "$port ", "0.5\n"],
    'float port' => [$host, (float) $port, .5],
    'port as float string' => [$host, "$port.0", '.5'],
    'exponent' => [$host, sprintf('%.3fe3', $port / 1000), '5e-1'],
    'int timeout as string' => [$host, (string) $port, '1'],
    'extra elements ignored' => [$host, (string) $port, '0.5', 'a 4th', ['a 5th']],
    'timeout null' => [$host, (string) $port, null],
    'keyed' => ['host' => $host, 'port' => " $port ", 'timeout' => '.5', 'database' => '0'],
];
foreach ($accepted as $name => $server) {
    $r = new RedLock([$server], 10, 1);
    $lock = $r->lock(rt_key($name), 10000);
    echo "$name: ", is_array($lock) && $r->unlock($lock) ? 'locks' : 'FAILED', ' on ',
        str_contains(print_r($r, true), "redis://$host:$port/0") ? 'the right server' : 'ANOTHER SERVER', "\n";
}
// The timeout is the string's value: 0.05 s against a paused server.
$paused = rt_spawn_server();
rt_signal($paused, 'STOP');
$r = new RedLock([['127.0.0.1', (string) $paused['port'], '0.05']], 10, 1);
[$result, $ms] = rt_timed(fn () => $r->lock(rt_key('paused'), 10000));
rt_signal($paused, 'CONT');
// 50 ms and our own work: the default (1 s) or a misread 0.5 s fail natively; valgrind scales our part.
echo 'paused server, timeout "0.05": ', var_export($result, true), ', ',
    $ms >= 45 && $ms < 50 + 150 * rt_time_scale() ? 'within 50..200 ms' : "took $ms ms", ', ',
    $r->getLastErrors()[0], "\n";
// Booleans follow coercive mode (true is 1, false is 0): a port of true is 1, false is out of range.
echo rt_throws(fn () => new RedLock([[$host, false]])), "\n";
var_dump(str_contains(print_r(new RedLock([[$host, true, true]]), true), "redis://$host:1/0"));
$ok = [$host, $port, 0.5];
// Still errors, naming the argument, the server and the field.
$refused = [
    [$host, '6379abc'], [$host, '0x18EB'], [$host, ''], [$host, ' '], [$host, '6379.5'], [$host, 6379.5],
    [$host, '1e10'], [$host, '0'], [$host, NAN], [$host, null], [$host, '6379', 'soon'], [$host, '6379', '-0.5'],
    [$host, '6379', '1e999'], [$host, '6379', '0.5s'], ['host' => $host, 'port' => '6379.5'],
    ['host' => $host, 'timeout' => 'INF'], ['host' => $host, 'database' => '1.5'], ['host' => $host, 'database' => ' -1'],
    [$host], [1 => '6379', 2 => 0.5], [$host, 3 => 6379],
];
foreach ($refused as $server) {
    echo str_replace('RedLock::__construct(): ', '', rt_throws(fn () => new RedLock([$ok, $server]))), "\n";
}
// A unix socket ignores its port, but it must still be a number.
echo rt_throws(fn () => new RedLock([['/tmp/none.sock', '0']])), "\n";
echo rt_throws(fn () => new RedLock([['/tmp/none.sock', 'none']])), "\n";
?>
--EXPECTF--
numeric string: locks on the right server
leading whitespace: locks on the right server
trailing whitespace: locks on the right server
float port: locks on the right server
port as float string: locks on the right server
exponent: locks on the right server
int timeout as string: locks on the right server
extra elements ignored: locks on the right server
timeout null: locks on the right server
keyed: locks on the right server
paused server, timeout "0.05": false, within 50..200 ms, timeout
ValueError: RedLock::__construct(): Argument #1 ($servers) server #0 port must be between 1 and 65535
bool(true)
TypeError: Argument #1 ($servers) server #1 port must be of type int, string given
TypeError: Argument #1 ($servers) server #1 port must be of type int, string given
TypeError: Argument #1 ($servers) server #1 port must be of type int, string given
TypeError: Argument #1 ($servers) server #1 port must be of type int, string given
ValueError: Argument #1 ($servers) server #1 port must be a whole number
ValueError: Argument #1 ($servers) server #1 port must be a whole number
ValueError: Argument #1 ($servers) server #1 port must be between 1 and 65535
ValueError: Argument #1 ($servers) server #1 port must be between 1 and 65535
ValueError: Argument #1 ($servers) server #1 port must be a whole number
TypeError: Argument #1 ($servers) server #1 port must be of type int, null given
TypeError: Argument #1 ($servers) server #1 timeout must be of type float, string given
ValueError: Argument #1 ($servers) server #1 timeout must be between 0 and 60 seconds
ValueError: Argument #1 ($servers) server #1 timeout must be between 0 and 60 seconds
TypeError: Argument #1 ($servers) server #1 timeout must be of type float, string given
ValueError: Argument #1 ($servers) server #1 port must be a whole number
TypeError: Argument #1 ($servers) server #1 timeout must be of type float, string given
ValueError: Argument #1 ($servers) server #1 database must be a whole number
ValueError: Argument #1 ($servers) server #1 database must be between 0 and 2147483647
ValueError: Argument #1 ($servers) server #1 must be a list [host, port, timeout]
ValueError: Argument #1 ($servers) server #1 must be a list [host, port, timeout]
ValueError: Argument #1 ($servers) server #1 must be a list [host, port, timeout]
no exception
TypeError: RedLock::__construct(): Argument #1 ($servers) server #0 port must be of type int, string given
