--TEST--
Cluster members: cluster:// and clusters:// URIs and the keyed form with "cluster" are accepted as one member each and described without credentials; every bad URI or seed is a ValueError/TypeError naming the member, never quoting a secret
--EXTENSIONS--
redlock
--FILE--
<?php
$good = [
    'cluster://10.0.0.1:7000,10.0.0.2:7001,10.0.0.3',
    'CLUSTER://alice:S3CRET@10.0.0.4:7000?timeout=0.25',
    'clusters://10.0.0.5:7000?cafile=/etc/ca.pem&verify_peer_name=0&password=S3CRET',
    ['cluster' => ['10.0.0.6:7000', ['10.0.0.7', 7001], '[::1]:7002'], 'password' => 'S3CRET', 'timeout' => 0.2],
    ['cluster' => ['10.0.0.8'], 'username' => 'bob', 'password' => 'S3CRET', 'tls' => ['verify_peer' => false]],
];
$r = new RedLock($good);
$shown = print_r($r, true);
echo str_contains($shown, 'S3CRET') || str_contains($shown, 'alice') || str_contains($shown, 'bob') ? "LEAK\n" : "no credentials shown\n";
preg_match_all('/\[\d\] => (\S+)/', $shown, $m);
echo implode("\n", $m[1]), "\n";

$bad = [
    'cluster://',
    'cluster://:S3CRET@',
    'cluster://:S3CRET@10.0.0.1:0',
    'cluster://:S3CRET@10.0.0.1,',
    'cluster://:S3CRET@10.0.0.1/2',
    'cluster://:S3CRET@10.0.0.1?db=2',
    'cluster://:S3CRET@10.0.0.1?S3CRET=1',
    'cluster://:S3CRET@10.0.0.1?cafile=/x',
    'cluster://S3CRET@10.0.0.1',
    'cluster://' . implode(',', array_fill(0, 17, '10.0.0.1')),
    ['cluster' => ['10.0.0.1'], 'password' => 'S3CRET', 'passwd' => 1],
    ['cluster' => ['10.0.0.1'], 'password' => 'S3CRET', 'database' => 1],
    ['cluster' => []],
    ['cluster' => '10.0.0.1'],
    ['cluster' => ['10.0.0.1:x']],
    ['cluster' => [['10.0.0.1', 70000]]],
    ['cluster' => [['/tmp/redis.sock', 6379]]],
    ['cluster' => [1]],
    ['cluster' => ['10.0.0.1'], 'username' => 'S3CRET'],
    ['cluster' => ['10.0.0.1'], 'timeout' => -1],
    'cluster://:S3CRET@10.0.0.1?member=x',
    'cluster://:S3CRET@10.0.0.1?member=256',
    'cluster://:S3CRET@10.0.0.1?member=1&member=2',
    ['cluster' => ['10.0.0.1'], 'member' => -1],
];
foreach ($bad as $entry) {
    try {
        new RedLock(['redis://10.9.9.9', $entry]);
        echo "accepted\n";
    } catch (ValueError | TypeError $e) {
        echo get_class($e), ': ', $e->getMessage(), str_contains($e->getMessage(), 'S3CRET') ? ' LEAK' : '', "\n";
    }
}
// the same cluster twice votes twice: refused as any repeated server
try {
    new RedLock(['cluster://10.0.0.1:7000,10.0.0.2', ['cluster' => ['10.0.0.1:7000', '10.0.0.2:6379']]]);
} catch (ValueError $e) {
    echo $e->getMessage(), "\n";
}
?>
--EXPECT--
no credentials shown
cluster://10.0.0.1:7000,10.0.0.2:7001,10.0.0.3:6379
cluster://10.0.0.4:7000
clusters://10.0.0.5:7000
cluster://10.0.0.6:7000,10.0.0.7:7001,[::1]:7002
clusters://10.0.0.8:6379
ValueError: RedLock::__construct(): Argument #1 ($servers) server #1 cluster URI must name at least one seed, like cluster://host:6379
ValueError: RedLock::__construct(): Argument #1 ($servers) server #1 cluster URI must name at least one seed, like cluster://host:6379
ValueError: RedLock::__construct(): Argument #1 ($servers) server #1 URI port must be an integer between 1 and 65535
ValueError: RedLock::__construct(): Argument #1 ($servers) server #1 URI host must not be empty
ValueError: RedLock::__construct(): Argument #1 ($servers) server #1 cluster URI takes no path: a cluster has database 0 only
ValueError: RedLock::__construct(): Argument #1 ($servers) server #1 cluster URI database must be 0: a cluster has database 0 only
ValueError: RedLock::__construct(): Argument #1 ($servers) server #1 URI has an unknown query parameter (known: timeout, password, username, member)
ValueError: RedLock::__construct(): Argument #1 ($servers) server #1 URI TLS parameters need the rediss://, sentinels:// or clusters:// scheme
ValueError: RedLock::__construct(): Argument #1 ($servers) server #1 URI user info needs a password: use redis://user:password@host, or redis://:password@host for a password alone
ValueError: RedLock::__construct(): Argument #1 ($servers) server #1 URI names more than 16 seeds
ValueError: RedLock::__construct(): Argument #1 ($servers) server #1 has an unknown key "passwd" (known: cluster, timeout, username, password, tls, member)
ValueError: RedLock::__construct(): Argument #1 ($servers) server #1 has an unknown key "database" (known: cluster, timeout, username, password, tls, member)
ValueError: RedLock::__construct(): Argument #1 ($servers) server #1 cluster must list 1 to 16 seeds
TypeError: RedLock::__construct(): Argument #1 ($servers) server #1 cluster must be of type array, string given
ValueError: RedLock::__construct(): Argument #1 ($servers) server #1 seed #0 must be "host:port" (URI port must be an integer between 1 and 65535)
ValueError: RedLock::__construct(): Argument #1 ($servers) server #1 port must be between 1 and 65535
ValueError: RedLock::__construct(): Argument #1 ($servers) server #1 seed #0 must be a host, not a unix socket
TypeError: RedLock::__construct(): Argument #1 ($servers) server #1 seed #0 must be of type string|array, int given
ValueError: RedLock::__construct(): Argument #1 ($servers) server #1 username needs a password
ValueError: RedLock::__construct(): Argument #1 ($servers) server #1 timeout must be between 0 and 60 seconds
ValueError: RedLock::__construct(): Argument #1 ($servers) server #1 URI member must be a whole number from 0 to 255
ValueError: RedLock::__construct(): Argument #1 ($servers) server #1 URI member must be a whole number from 0 to 255
ValueError: RedLock::__construct(): Argument #1 ($servers) server #1 URI gives the member twice
ValueError: RedLock::__construct(): Argument #1 ($servers) server #1 member must be between 0 and 255
RedLock::__construct(): Argument #1 ($servers) server #1 repeats server #0 (cluster 10.0.0.1:7000,10.0.0.2:6379): a server may vote only once
