--TEST--
Sentinel members: sentinel:// and sentinels:// URIs and the keyed form are accepted and described without credentials; every bad part is a ValueError/TypeError naming the server and the field, never quoting a secret
--EXTENSIONS--
redlock
--FILE--
<?php
$good = [
    'sentinel://10.0.0.1:26379,10.0.0.2:26380,10.0.0.3/mymaster',
    'sentinel://alice:S3CRET@10.0.0.1/cache-1.a?db=3&timeout=0.25&sentinel_username=bob&sentinel_password=S3CRET2',
    'SENTINEL://[::1]:26379/m?password=S3CRET',
    'sentinels://10.0.0.1/m?cafile=/etc/ca.pem&verify_peer_name=0',
    ['sentinels' => ['10.0.0.1:26379', ['10.0.0.2', 26380], '[::1]'], 'master' => 'mymaster', 'password' => 'S3CRET',
        'sentinel_password' => 'S3CRET2', 'database' => '2', 'timeout' => 0.2],
    ['sentinels' => ['10.0.0.1'], 'master' => 'm2', 'tls' => ['verify_peer' => false]],
];
$r = new RedLock($good);
$shown = print_r($r, true);
echo str_contains($shown, 'S3CRET') || str_contains($shown, 'alice') || str_contains($shown, 'bob') ? "LEAK\n" : "no credentials shown\n";
preg_match_all('/\[\d\] => (\S+)/', $shown, $m);
echo implode("\n", $m[1]), "\n";

$bad = [
    'sentinel://:S3CRET@10.0.0.1',
    'sentinel://:S3CRET@10.0.0.1/',
    'sentinel://:S3CRET@10.0.0.1/bad name',
    'sentinel://:S3CRET@10.0.0.1:0/m',
    'sentinel://:S3CRET@10.0.0.1,/m',
    'sentinel://:S3CRET@10.0.0.1/m?S3CRET=1',
    'sentinel://:S3CRET@10.0.0.1/m?cafile=/x',
    'sentinel://S3CRET@10.0.0.1/m',
    'sentinel://10.0.0.1/m?sentinel_username=S3CRET',
    'sentinel://10.0.0.1/m?sentinel_password=S3CRET&sentinel_password=S3CRET',
    'sentinel://' . implode(',', array_fill(0, 17, '10.0.0.1')) . '/m',
    ['sentinels' => ['10.0.0.1'], 'master' => 'm', 'password' => 'S3CRET', 'passwd' => 1],
    ['sentinels' => ['10.0.0.1'], 'password' => 'S3CRET'],
    ['sentinels' => [], 'master' => 'm'],
    ['sentinels' => '10.0.0.1', 'master' => 'm'],
    ['sentinels' => ['10.0.0.1:x'], 'master' => 'm'],
    ['sentinels' => [['10.0.0.1', 70000]], 'master' => 'm'],
    ['sentinels' => [1], 'master' => 'm'],
    ['sentinels' => ['10.0.0.1'], 'master' => 'a/b'],
    ['sentinels' => ['10.0.0.1'], 'master' => 5],
    ['sentinels' => ['10.0.0.1'], 'master' => 'm', 'sentinel_username' => 'S3CRET'],
    ['sentinels' => ['10.0.0.1'], 'master' => 'm', 'sentinel_password' => 7],
    ['sentinels' => ['10.0.0.1'], 'master' => 'm', 'database' => -1],
    ['sentinels' => ['10.0.0.1'], 'master' => 'm', 'tls' => ['bogus' => 1]],
];
foreach ($bad as $server) {
    try {
        new RedLock(['redis://127.0.0.1', $server]);
        echo "accepted\n";
    } catch (ValueError|TypeError $e) {
        echo get_class($e), ': ', str_contains($e->getMessage(), 'S3CRET') ? 'LEAK' : $e->getMessage(), "\n";
    }
}

// the same member twice would vote twice
try {
    new RedLock(['sentinel://10.0.0.1/m', ['sentinels' => ['10.0.0.1:26379'], 'master' => 'm']]);
} catch (ValueError $e) {
    echo $e->getMessage(), "\n";
}
// the same sentinels with another master name, and a plain member, are other members
new RedLock(['sentinel://10.0.0.1/m', 'sentinel://10.0.0.1/n', 'redis://10.0.0.1:26379']);
echo "done\n";
?>
--EXPECT--
no credentials shown
sentinel://10.0.0.1:26379,10.0.0.2:26380,10.0.0.3:26379/mymaster?db=0
sentinel://10.0.0.1:26379/cache-1.a?db=3
sentinel://[::1]:26379/m?db=0
sentinels://10.0.0.1:26379/m?db=0
sentinel://10.0.0.1:26379,10.0.0.2:26380,[::1]:26379/mymaster?db=2
sentinels://10.0.0.1:26379/m2?db=0
ValueError: RedLock::__construct(): Argument #1 ($servers) server #1 sentinel URI must end with the master's name, like sentinel://host:26379/mymaster
ValueError: RedLock::__construct(): Argument #1 ($servers) server #1 sentinel URI must end with the master's name, like sentinel://host:26379/mymaster
ValueError: RedLock::__construct(): Argument #1 ($servers) server #1 sentinel URI master name must be 1 to 128 letters, digits, '.', '_' or '-'
ValueError: RedLock::__construct(): Argument #1 ($servers) server #1 URI port must be an integer between 1 and 65535
ValueError: RedLock::__construct(): Argument #1 ($servers) server #1 URI host must not be empty
ValueError: RedLock::__construct(): Argument #1 ($servers) server #1 URI has an unknown query parameter (known: timeout, db, password, username, sentinel_username, sentinel_password)
ValueError: RedLock::__construct(): Argument #1 ($servers) server #1 URI TLS parameters need the rediss://, sentinels:// or clusters:// scheme
ValueError: RedLock::__construct(): Argument #1 ($servers) server #1 URI user info needs a password: use redis://user:password@host, or redis://:password@host for a password alone
ValueError: RedLock::__construct(): Argument #1 ($servers) server #1 URI sentinel_username needs a sentinel_password
ValueError: RedLock::__construct(): Argument #1 ($servers) server #1 URI gives the sentinel_password twice
ValueError: RedLock::__construct(): Argument #1 ($servers) server #1 URI names more than 16 sentinels
ValueError: RedLock::__construct(): Argument #1 ($servers) server #1 has an unknown key "passwd" (known: sentinels, master, timeout, username, password, database, tls, sentinel_username, sentinel_password)
ValueError: RedLock::__construct(): Argument #1 ($servers) server #1 must have both "sentinels" and "master"
ValueError: RedLock::__construct(): Argument #1 ($servers) server #1 sentinels must list 1 to 16 sentinels
TypeError: RedLock::__construct(): Argument #1 ($servers) server #1 sentinels must be of type array, string given
ValueError: RedLock::__construct(): Argument #1 ($servers) server #1 sentinel #0 must be "host:port" (URI port must be an integer between 1 and 65535)
ValueError: RedLock::__construct(): Argument #1 ($servers) server #1 port must be between 1 and 65535
TypeError: RedLock::__construct(): Argument #1 ($servers) server #1 sentinel #0 must be of type string|array, int given
ValueError: RedLock::__construct(): Argument #1 ($servers) server #1 master must be 1 to 128 letters, digits, '.', '_' or '-'
TypeError: RedLock::__construct(): Argument #1 ($servers) server #1 master must be of type string, int given
ValueError: RedLock::__construct(): Argument #1 ($servers) server #1 sentinel_username needs a sentinel_password
TypeError: RedLock::__construct(): Argument #1 ($servers) server #1 sentinel_password must be of type ?string, int given
ValueError: RedLock::__construct(): Argument #1 ($servers) server #1 database must be between 0 and 2147483647
ValueError: RedLock::__construct(): Argument #1 ($servers) server #1 tls has an unknown key "bogus" (known: cafile, capath, local_cert, local_pk, passphrase, peer_name, verify_peer, verify_peer_name)
RedLock::__construct(): Argument #1 ($servers) server #1 repeats server #0 (sentinel master m): a server may vote only once
done
