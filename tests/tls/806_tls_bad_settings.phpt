--TEST--
TLS: bad settings are a ValueError or TypeError naming the server and the field, before any connection: unknown keys, wrong types, local_pk without local_cert, TLS over a unix socket, TLS query parameters on redis://, bad verify values; the passphrase is never quoted
--EXTENSIONS--
redlock
--FILE--
<?php
$base = ['host' => '127.0.0.1', 'port' => 6380];
$cases = [
    $base + ['tls' => 'yes'],
    $base + ['tls' => ['cafile' => 1]],
    $base + ['tls' => ['cafile' => '']],
    $base + ['tls' => ['cafile' => "a\0b"]],
    $base + ['tls' => ['ca_file' => '/x']],
    $base + ['tls' => ['secret-passphrase-here' => 'x']],
    $base + ['tls' => ['verify_peer' => 0]],
    $base + ['tls' => ['/x']],
    $base + ['tls' => ['local_pk' => '/x.key']],
    ['host' => '/run/redis.sock', 'tls' => true],
    'redis://127.0.0.1?cafile=/x',
    'redis://127.0.0.1?verify_peer=0',
    'rediss://127.0.0.1?verify_peer=maybe',
    'rediss://127.0.0.1?cafile=',
    'rediss://127.0.0.1?cafile=/a&cafile=/b',
    'rediss://127.0.0.1?local_pk=/x.key',
    'rediss://127.0.0.1?passphrase=s3cret-pp&bogus=1',
    'rediss://127.0.0.1?passphrase=s3cret%zz',
];
foreach ($cases as $i => $server) {
    try {
        new RedLock([$server]);
        echo "$i: accepted\n";
    } catch (Throwable $e) {
        echo "$i: ", get_class($e), ': ', $e->getMessage(), "\n";
    }
}
// Accepted forms (nothing connects until a call).
foreach ([$base + ['tls' => true], $base + ['tls' => null], $base + ['tls' => false], $base + ['tls' => []],
    'rediss://127.0.0.1', 'REDISS://127.0.0.1:6390/2?timeout=0.5&verify_peer_name=no&peer_name=redis.example',
    ] as $server) {
    preg_match_all('~rediss?://\S+~', print_r(new RedLock([$server]), true), $m);
    echo implode(' ', $m[0]), "\n";
}
ob_start();
phpinfo(INFO_MODULES);
echo preg_match('/^TLS \(rediss:\/\/\) => OpenSSL \d/m', ob_get_clean()) ? "phpinfo names the OpenSSL\n" : "no TLS line in phpinfo\n";
?>
--EXPECTF--
0: TypeError: RedLock::__construct(): Argument #1 ($servers) server #0 tls must be of type array|bool, string given
1: TypeError: RedLock::__construct(): Argument #1 ($servers) server #0 tls cafile must be of type ?string, int given
2: ValueError: RedLock::__construct(): Argument #1 ($servers) server #0 tls cafile must be a non-empty string without NUL bytes
3: ValueError: RedLock::__construct(): Argument #1 ($servers) server #0 tls cafile must be a non-empty string without NUL bytes
4: ValueError: RedLock::__construct(): Argument #1 ($servers) server #0 tls has an unknown key "ca_file" (known: cafile, capath, local_cert, local_pk, passphrase, peer_name, verify_peer, verify_peer_name)
5: ValueError: RedLock::__construct(): Argument #1 ($servers) server #0 tls has an unknown key "secret-passphrase-here" (known: cafile, capath, local_cert, local_pk, passphrase, peer_name, verify_peer, verify_peer_name)
6: TypeError: RedLock::__construct(): Argument #1 ($servers) server #0 tls verify_peer must be of type bool, int given
7: ValueError: RedLock::__construct(): Argument #1 ($servers) server #0 tls must be an array with the keys cafile, capath, local_cert, local_pk, passphrase, peer_name, verify_peer, verify_peer_name
8: ValueError: RedLock::__construct(): Argument #1 ($servers) server #0 tls local_pk needs local_cert
9: ValueError: RedLock::__construct(): Argument #1 ($servers) server #0 tls is not available over a unix socket
10: ValueError: RedLock::__construct(): Argument #1 ($servers) server #0 URI TLS parameters need the rediss://, sentinels:// or clusters:// scheme
11: ValueError: RedLock::__construct(): Argument #1 ($servers) server #0 URI TLS parameters need the rediss://, sentinels:// or clusters:// scheme
12: ValueError: RedLock::__construct(): Argument #1 ($servers) server #0 URI verify_peer and verify_peer_name must be 1 or 0 (true or false)
13: ValueError: RedLock::__construct(): Argument #1 ($servers) server #0 URI cafile must not be empty
14: ValueError: RedLock::__construct(): Argument #1 ($servers) server #0 URI gives the cafile twice
15: ValueError: RedLock::__construct(): Argument #1 ($servers) server #0 URI local_pk needs local_cert
16: ValueError: RedLock::__construct(): Argument #1 ($servers) server #0 URI has an unknown query parameter (known: timeout, db, password, username, cafile, capath, local_cert, local_pk, passphrase, peer_name, verify_peer, verify_peer_name)
17: ValueError: RedLock::__construct(): Argument #1 ($servers) server #0 URI passphrase has a bad percent-escape or a NUL byte
rediss://127.0.0.1:6380/0
redis://127.0.0.1:6380/0
redis://127.0.0.1:6380/0
rediss://127.0.0.1:6380/0
rediss://127.0.0.1:6379/0
rediss://127.0.0.1:6390/2
phpinfo names the OpenSSL
