--TEST--
Seeds written with a scheme: a cluster member (URI or keyed) or fromCluster() whose seeds mix TLS and plain (rediss:// beside a seed written without it) is a ValueError saying so, not a path or port error; seeds all written rediss:// are told TLS is the member's; a Sentinel member's sentinels alike
--EXTENSIONS--
redlock
--FILE--
<?php
require __DIR__ . '/../inc/redlock_test.inc';
foreach ([
    ['cluster://127.0.0.1:7000,rediss://127.0.0.1:7001'],
    ['clusters://127.0.0.1:7000,redis://127.0.0.1:7001'],
    [['cluster' => ['127.0.0.1:7000', 'rediss://127.0.0.1:7001']]],
    [['cluster' => ['rediss://127.0.0.1:7000', 'redis://127.0.0.1:7001']]],
    [['cluster' => ['rediss://127.0.0.1:7000', 'rediss://127.0.0.1:7001']]],
    ['clusters://127.0.0.1:7000,rediss://127.0.0.1:7001'],
    [['sentinels' => ['127.0.0.1:26379', 'rediss://127.0.0.1:26380'], 'master' => 'm']],
] as $servers) {
    echo rt_throws(fn () => new RedLock($servers)), "\n";
}
echo rt_throws(fn () => RedLock::fromCluster('127.0.0.1:7000,rediss://127.0.0.1:7001')), "\n";
echo rt_throws(fn () => RedLock::fromCluster(['127.0.0.1:7000', 'rediss://127.0.0.1:7001'])), "\n";
// a path is still a path
echo rt_throws(fn () => new RedLock(['cluster://127.0.0.1:7000/1'])), "\n";
?>
--EXPECT--
ValueError: RedLock::__construct(): Argument #1 ($servers) server #0 the seeds mix TLS and plain (rediss:// beside a seed written without it): write every seed host:port and give TLS once for the member (clusters://, sentinels:// or "tls")
ValueError: RedLock::__construct(): Argument #1 ($servers) server #0 the seeds mix TLS and plain (rediss:// beside a seed written without it): write every seed host:port and give TLS once for the member (clusters://, sentinels:// or "tls")
ValueError: RedLock::__construct(): Argument #1 ($servers) server #0 cluster: the seeds mix TLS and plain (rediss:// beside a seed written without it): write every seed host:port and give TLS once for the member (clusters://, sentinels:// or "tls")
ValueError: RedLock::__construct(): Argument #1 ($servers) server #0 cluster: the seeds mix TLS and plain (rediss:// beside a seed written without it): write every seed host:port and give TLS once for the member (clusters://, sentinels:// or "tls")
ValueError: RedLock::__construct(): Argument #1 ($servers) server #0 cluster: a seed takes no scheme: write it host:port and give TLS once for the member (clusters://, sentinels:// or "tls")
ValueError: RedLock::__construct(): Argument #1 ($servers) server #0 a seed takes no scheme: write it host:port and give TLS once for the member (clusters://, sentinels:// or "tls")
ValueError: RedLock::__construct(): Argument #1 ($servers) server #0 sentinels: the seeds mix TLS and plain (rediss:// beside a seed written without it): write every seed host:port and give TLS once for the member (clusters://, sentinels:// or "tls")
ValueError: RedLock::fromCluster(): Argument #1 ($seeds) server #0 the seeds mix TLS and plain (rediss:// beside a seed written without it): write every seed host:port and give TLS once for the member (clusters://, sentinels:// or "tls")
ValueError: RedLock::fromCluster(): Argument #1 ($seeds) server #0 cluster: the seeds mix TLS and plain (rediss:// beside a seed written without it): write every seed host:port and give TLS once for the member (clusters://, sentinels:// or "tls")
ValueError: RedLock::__construct(): Argument #1 ($servers) server #0 cluster URI takes no path: a cluster has database 0 only
