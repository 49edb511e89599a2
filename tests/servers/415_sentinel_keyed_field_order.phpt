--TEST--
A keyed Sentinel member with two bad fields names them in the order it always did: 'sentinel_username' and 'sentinel_password' are read after 'password' and before 'tls', and before 'username needs a password' (the shared parser of Sentinel and Cluster entries had moved them after both)
--EXTENSIONS--
redlock
--FILE--
<?php
$bad = [
    ['sentinels' => ['10.0.0.1'], 'master' => 'm', 'username' => 'u', 'sentinel_username' => 42],
    ['sentinels' => ['10.0.0.1'], 'master' => 'm', 'username' => 'u', 'sentinel_password' => []],
    ['sentinels' => ['10.0.0.1'], 'master' => 'm', 'tls' => 'yes', 'sentinel_username' => 42],
    ['sentinels' => ['10.0.0.1'], 'master' => 'm', 'tls' => ['bogus' => 1], 'sentinel_password' => 1.5],
    // what came first before stays first: the master's fields, then 'username needs a password' before
    // 'sentinel_username needs a sentinel_password'
    ['sentinels' => ['10.0.0.1'], 'master' => 'm', 'password' => 5, 'sentinel_username' => 42],
    ['sentinels' => ['10.0.0.1'], 'master' => 'm', 'username' => 'u', 'sentinel_username' => 'x'],
    ['sentinels' => ['10.0.0.1'], 'master' => 'm', 'sentinel_username' => 'x', 'tls' => 1],
    // a Cluster member's fields, unchanged
    ['cluster' => ['10.0.0.1'], 'username' => 'u', 'tls' => 5],
];
foreach ($bad as $server) {
    try {
        new RedLock(['redis://127.0.0.1', $server]);
        echo "accepted\n";
    } catch (ValueError|TypeError $e) {
        echo get_class($e), ': ', $e->getMessage(), "\n";
    }
}
?>
--EXPECT--
TypeError: RedLock::__construct(): Argument #1 ($servers) server #1 sentinel_username must be of type ?string, int given
TypeError: RedLock::__construct(): Argument #1 ($servers) server #1 sentinel_password must be of type ?string, array given
TypeError: RedLock::__construct(): Argument #1 ($servers) server #1 sentinel_username must be of type ?string, int given
TypeError: RedLock::__construct(): Argument #1 ($servers) server #1 sentinel_password must be of type ?string, float given
TypeError: RedLock::__construct(): Argument #1 ($servers) server #1 password must be of type ?string, int given
ValueError: RedLock::__construct(): Argument #1 ($servers) server #1 username needs a password
TypeError: RedLock::__construct(): Argument #1 ($servers) server #1 tls must be of type array|bool, int given
TypeError: RedLock::__construct(): Argument #1 ($servers) server #1 tls must be of type array|bool, int given
