--TEST--
Server URIs: accepted forms, and a ValueError naming the server index and the field for every bad part, never quoting the URI
--EXTENSIONS--
redlock
--FILE--
<?php
$good = [
    'redis://127.0.0.1',
    'redis://127.0.0.1:6380/3?timeout=0.25',
    'REDIS://localhost:1/0',
    'redis://:pa%2Fss@127.0.0.1:7000',
    'redis://alice:p@ss:w@127.0.0.1/15',
    'redis://[::1]:6379',
    'unix:///run/redis.sock',
    'unix:///run/redis.sock?db=2&timeout=1.5&password=x',
    'redis://127.0.0.1?db=4&timeout=2',
];
foreach ($good as $uri) {
    new RedLock([$uri]);
}
echo "accepted: ", count($good), "\n";

$bad = [
    'redis://:TOPSECRET@127.0.0.1:0',
    'redis://:TOPSECRET@127.0.0.1:65536',
    'redis://:TOPSECRET@127.0.0.1:port',
    'redis://:TOPSECRET@127.0.0.1/x',
    'redis://:TOPSECRET@127.0.0.1/99999999999',
    'redis://:TOPSECRET@127.0.0.1/1?db=2',
    'redis://:TOPSECRET@127.0.0.1?timeout=-1',
    'redis://:TOPSECRET@127.0.0.1?timeout=abc',
    'redis://:TOPSECRET@127.0.0.1?TOPSECRET=1',
    'redis://TOPSECRET@127.0.0.1',
    'redis://:@127.0.0.1',
    'redis://:TOP%zzSECRET@127.0.0.1',
    'redis://:TOP%00SECRET@127.0.0.1',
    'redis://:TOP/SECRET@127.0.0.1',
    'redis://:TOPSECRET@127.0.0.1#frag',
    'redis://:TOPSECRET@',
    'redis://:TOPSECRET@[::1',
    'redis://:TOPSECRET@bad host',
    'rediss://:TOPSECRET@127.0.0.1?verify_peer=TOPSECRET',
    'http://TOPSECRET@127.0.0.1',
    'unix://relative.sock?password=TOPSECRET',
    'unix:///s.sock?password=TOPSECRET&password=TOPSECRET',
    'unix:///s.sock?username=TOPSECRET',
    "redis://127.0.0.1\0:TOPSECRET",
    '',
];
foreach ($bad as $i => $uri) {
    try {
        new RedLock(['redis://127.0.0.1', $uri]);
        echo "accepted: $i\n";
    } catch (ValueError $e) {
        $message = $e->getMessage();
        if (str_contains($message, 'TOPSECRET') || str_contains($message, 'SECRET')) {
            echo "LEAK in $i\n";
        }
        echo str_replace('RedLock::__construct(): Argument #1 ($servers) ', '', $message), "\n";
    }
}
?>
--EXPECT--
accepted: 9
server #1 URI port must be an integer between 1 and 65535
server #1 URI port must be an integer between 1 and 65535
server #1 URI port must be an integer between 1 and 65535
server #1 URI database must be an integer between 0 and 2147483647
server #1 URI database must be an integer between 0 and 2147483647
server #1 URI gives the database twice
server #1 URI timeout must be a number of seconds >= 0, like 0.5
server #1 URI timeout must be a number of seconds >= 0, like 0.5
server #1 URI has an unknown query parameter (known: timeout, db, password, username)
server #1 URI user info needs a password: use redis://user:password@host, or redis://:password@host for a password alone
server #1 URI password must not be empty
server #1 URI password has a bad percent-escape or a NUL byte
server #1 URI password has a bad percent-escape or a NUL byte
server #1 URI host must not be empty
server #1 URI must not have a #fragment (percent-encode '#' in a password)
server #1 URI host must not be empty
server #1 URI host has an unclosed '[' (IPv6 addresses are written [::1])
server #1 URI host is malformed (percent-encode '/', '?' and '#' in a password)
server #1 URI verify_peer and verify_peer_name must be 1 or 0 (true or false)
server #1 URI must start with redis://, rediss://, unix://, sentinel://, sentinels://, cluster://, clusters:// or memory://
server #1 unix URI must name an absolute socket path, like unix:///run/redis.sock
server #1 URI gives the password twice
server #1 URI user name needs a password
server #1 URI must not contain NUL bytes
server #1 URI must start with redis://, rediss://, unix://, sentinel://, sentinels://, cluster://, clusters:// or memory://
