--TEST--
Every duration has a documented upper bound, a ValueError naming the argument beyond it: retryDelay 3600000 ms, retryCount 1000000, waitTimeout 86400000 ms, a server's timeout 60 s in every form (list, keyed array, URI, sentinel member). Before, retryDelay PHP_INT_MAX made a contended lock() sleep without end and a timeout of 1e10 or 1e300 was taken, so that validity() with 2 of 3 servers paused never returned
--EXTENSIONS--
redlock
--FILE--
<?php
require __DIR__ . '/../inc/redlock_test.inc';
$servers = rt_servers(3);
$try = function (string $label, callable $make) {
    $message = rt_throws($make);
    echo str_pad($label, 34), $message === 'no exception' ? 'accepted' : $message, "\n";
};
foreach ([3600000, 3600001, PHP_INT_MAX] as $delay) {
    $try("retryDelay $delay", fn () => new RedLock($servers, $delay, 1));
}
foreach ([1000000, 1000001, PHP_INT_MAX] as $count) {
    $try("retryCount $count", fn () => new RedLock($servers, 0, $count));
}
foreach ([86400000, 86400001, PHP_INT_MAX] as $wait) {
    $try("waitTimeout $wait", fn () => new RedLock($servers, 0, 1, ['waitTimeout' => $wait]));
}
[$host, $port] = $servers[1];
foreach ([60, 60.0, 60.001, 61, 1e10, 1e300] as $timeout) {
    $try('list timeout ' . var_export($timeout, true), fn () => new RedLock([$servers[0], [$host, $port, $timeout]]));
    $try('keyed timeout ' . var_export($timeout, true), fn () => new RedLock([$servers[0], ['host' => $host, 'port' => $port, 'timeout' => $timeout]]));
    $try('sentinel timeout ' . var_export($timeout, true), fn () => new RedLock([$servers[0],
        ['sentinels' => [['127.0.0.1', 26379]], 'master' => 'm', 'timeout' => $timeout]]));
}
foreach (['60', '60.5', '10000000000'] as $timeout) {
    $try("URI ?timeout=$timeout", fn () => new RedLock([$servers[0], "redis://$host:$port?timeout=$timeout"]));
    $try("sentinel URI ?timeout=$timeout", fn () => new RedLock([$servers[0], "sentinel://127.0.0.1:26379/m?timeout=$timeout"]));
}
?>
--EXPECT--
retryDelay 3600000                accepted
retryDelay 3600001                ValueError: RedLock::__construct(): Argument #2 ($retryDelay) must be between 0 and 3600000 (ms, one hour)
retryDelay 9223372036854775807    ValueError: RedLock::__construct(): Argument #2 ($retryDelay) must be between 0 and 3600000 (ms, one hour)
retryCount 1000000                accepted
retryCount 1000001                ValueError: RedLock::__construct(): Argument #3 ($retryCount) must be between 0 and 1000000 (attempts; waitTimeout waits longer)
retryCount 9223372036854775807    ValueError: RedLock::__construct(): Argument #3 ($retryCount) must be between 0 and 1000000 (attempts; waitTimeout waits longer)
waitTimeout 86400000              accepted
waitTimeout 86400001              ValueError: RedLock::__construct(): Argument #4 ($options) option "waitTimeout" must be between 0 and 86400000 (ms, one day), or null
waitTimeout 9223372036854775807   ValueError: RedLock::__construct(): Argument #4 ($options) option "waitTimeout" must be between 0 and 86400000 (ms, one day), or null
list timeout 60                   accepted
keyed timeout 60                  accepted
sentinel timeout 60               accepted
list timeout 60.0                 accepted
keyed timeout 60.0                accepted
sentinel timeout 60.0             accepted
list timeout 60.001               ValueError: RedLock::__construct(): Argument #1 ($servers) server #1 timeout must be between 0 and 60 seconds
keyed timeout 60.001              ValueError: RedLock::__construct(): Argument #1 ($servers) server #1 timeout must be between 0 and 60 seconds
sentinel timeout 60.001           ValueError: RedLock::__construct(): Argument #1 ($servers) server #1 timeout must be between 0 and 60 seconds
list timeout 61                   ValueError: RedLock::__construct(): Argument #1 ($servers) server #1 timeout must be between 0 and 60 seconds
keyed timeout 61                  ValueError: RedLock::__construct(): Argument #1 ($servers) server #1 timeout must be between 0 and 60 seconds
sentinel timeout 61               ValueError: RedLock::__construct(): Argument #1 ($servers) server #1 timeout must be between 0 and 60 seconds
list timeout 10000000000.0        ValueError: RedLock::__construct(): Argument #1 ($servers) server #1 timeout must be between 0 and 60 seconds
keyed timeout 10000000000.0       ValueError: RedLock::__construct(): Argument #1 ($servers) server #1 timeout must be between 0 and 60 seconds
sentinel timeout 10000000000.0    ValueError: RedLock::__construct(): Argument #1 ($servers) server #1 timeout must be between 0 and 60 seconds
list timeout 1.0E+300             ValueError: RedLock::__construct(): Argument #1 ($servers) server #1 timeout must be between 0 and 60 seconds
keyed timeout 1.0E+300            ValueError: RedLock::__construct(): Argument #1 ($servers) server #1 timeout must be between 0 and 60 seconds
sentinel timeout 1.0E+300         ValueError: RedLock::__construct(): Argument #1 ($servers) server #1 timeout must be between 0 and 60 seconds
URI ?timeout=60                   accepted
sentinel URI ?timeout=60          accepted
URI ?timeout=60.5                 ValueError: RedLock::__construct(): Argument #1 ($servers) server #1 URI timeout must be at most 60 seconds
sentinel URI ?timeout=60.5        ValueError: RedLock::__construct(): Argument #1 ($servers) server #1 URI timeout must be at most 60 seconds
URI ?timeout=10000000000          ValueError: RedLock::__construct(): Argument #1 ($servers) server #1 URI timeout must be at most 60 seconds
sentinel URI ?timeout=10000000000 ValueError: RedLock::__construct(): Argument #1 ($servers) server #1 URI timeout must be at most 60 seconds
