--TEST--
Sentinel members: the sentinels' password (sentinel_password) and the master's (the URI's user info, 'password') are separate: each goes to its own server, a missing or wrong one fails that member with the server's words, never the secret
--EXTENSIONS--
redlock
--SKIPIF--
<?php require __DIR__ . '/../inc/sentinel.inc'; sn_skipif(); ?>
--FILE--
<?php
require __DIR__ . '/../inc/sentinel.inc';
$master = sn_spawn(getenv('REDLOCK_TEST_REDIS_SERVER') ?: 'redis-server', ['--requirepass', 'M4STERPW'], sn_port(3, 10));
$sentinel = sn_spawn(sn_binary(), [], sn_port(3, 11),
    "requirepass S3NTINELPW\nsentinel monitor m 127.0.0.1 {$master['port']} 1\nsentinel auth-pass m M4STERPW\n");
$s = "127.0.0.1:{$sentinel['port']}";
$key = rt_key();
$cases = [
    'both' => "sentinel://:M4STERPW@$s/m?timeout=0.5&sentinel_password=S3NTINELPW",
    'keyed' => ['sentinels' => [$s], 'master' => 'm', 'password' => 'M4STERPW', 'sentinel_password' => 'S3NTINELPW', 'timeout' => 0.5],
    'no sentinel password' => "sentinel://:M4STERPW@$s/m?timeout=0.5",
    'the master\'s password only' => "sentinel://$s/m?timeout=0.5&sentinel_password=S3NTINELPW",
    'wrong master password' => "sentinel://:WR0NGPW@$s/m?timeout=0.5&sentinel_password=S3NTINELPW",
];
foreach ($cases as $name => $server) {
    $r = new RedLock([$server], 10, 1, ['persistent' => false]); // each case asks the sentinel
    $lock = $r->lock($key, 10000);
    $error = (string) $r->getLastErrors()[0];
    printf("%s: %s %s\n", $name, is_array($lock) ? 'locked' : 'not locked',
        preg_match('/M4STERPW|S3NTINELPW|WR0NGPW/', $error) ? 'LEAK' : $error);
    if (is_array($lock)) {
        $r->unlock($lock);
    }
}
?>
--EXPECTF--
both: locked 
keyed: locked 
no sentinel password: not locked sentinel: no master address (sentinel #0: NOAUTH %s)
the master's password only: not locked NOAUTH %s
wrong master password: not locked WRONGPASS %s
