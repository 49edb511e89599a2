--TEST--
Keyed server arrays and mixed forms: accepted, and a TypeError/ValueError naming server index and field; lists keep their old messages
--EXTENSIONS--
redlock
--FILE--
<?php
require __DIR__ . '/../inc/redlock_test.inc';
[$host, $port] = rt_endpoints()[0];
$key = rt_key();
$mixed = new RedLock([
    ['host' => $host, 'port' => $port, 'timeout' => 0.5],
    "redis://$host:" . rt_ports()[1],
    [$host, rt_ports()[2], 0.5],
    ['host' => $host, 'port' => rt_ports()[3], 'username' => null, 'password' => '', 'database' => 0, 'timeout' => null],
    ['port' => rt_ports()[4], 'host' => $host],
]);
$lock = $mixed->lock($key, 10000);
var_dump(rt_values_are($key, array_fill(0, 5, $lock['token'])), $mixed->unlock($lock));

$cases = [
    ['host' => $host, 'pass' => 'TOPSECRET'],
    ['host' => $host, 0 => 'x'],
    ['port' => 6379],
    ['host' => 5],
    ['host' => ''],
    ['host' => $host, 'port' => '63 79'],
    ['host' => $host, 'port' => 0],
    ['host' => $host, 'timeout' => 'soon'],
    ['host' => $host, 'timeout' => -1],
    ['host' => $host, 'username' => 'bob'],
    ['host' => $host, 'password' => 42],
    ['host' => $host, 'password' => "TOP\0SECRET"],
    ['host' => $host, 'username' => ['x'], 'password' => 'TOPSECRET'],
    ['host' => $host, 'database' => 'three'],
    ['host' => $host, 'database' => -1],
    [$host],
    [$host, '6379x', 1],
    [$host, 70000, 1],
    [$host, 6379, INF],
    1.5,
];
foreach ($cases as $i => $server) {
    try {
        new RedLock([[$host, $port], $server]);
        echo "accepted: $i\n";
    } catch (TypeError|ValueError $e) {
        if (str_contains($e->getMessage(), 'SECRET')) {
            echo "LEAK in $i\n";
        }
        echo get_class($e), ': ', str_replace('RedLock::__construct(): Argument #1 ($servers) ', '', $e->getMessage()), "\n";
    }
}
?>
--EXPECT--
bool(true)
bool(true)
ValueError: server #1 has an unknown key "pass" (known: host, port, timeout, username, password, database, tls)
ValueError: server #1 must not mix list items with the keys host, port, timeout, username, password, database, tls
ValueError: server #1 must have a "host"
TypeError: server #1 host must be of type string, int given
ValueError: server #1 host must be a non-empty string without NUL bytes
TypeError: server #1 port must be of type int, string given
ValueError: server #1 port must be between 1 and 65535
TypeError: server #1 timeout must be of type float, string given
ValueError: server #1 timeout must be between 0 and 60 seconds
ValueError: server #1 username needs a password
TypeError: server #1 password must be of type ?string, int given
ValueError: server #1 password must not contain NUL bytes
TypeError: server #1 username must be of type ?string, array given
TypeError: server #1 database must be of type int, string given
ValueError: server #1 database must be between 0 and 2147483647
ValueError: server #1 must be a list [host, port, timeout]
TypeError: server #1 port must be of type int, string given
ValueError: server #1 port must be between 1 and 65535
ValueError: server #1 timeout must be between 0 and 60 seconds
TypeError: server #1 must be of type array|string, float given
