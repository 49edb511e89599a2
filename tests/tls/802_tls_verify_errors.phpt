--TEST--
TLS: a server certificate from an unknown CA, for another name, or expired fails that server's vote with an error saying which (no exception, no wait past the timeout); the lock still forms on the servers that verify; a missing CA file is a per-server error too
--EXTENSIONS--
redlock
--FILE--
<?php
require __DIR__ . '/../inc/tls.inc';
$certs = tls_certs();
$good = [tls_spawn(), tls_spawn(), tls_spawn()];
$expired = tls_spawn($certs['expired']);
$otherName = tls_spawn($certs['other_name']);
$key = rt_key();

$cases = [
    'unknown CA' => tls_server($good[0], ['cafile' => $certs['other_ca']['crt']]),
    'expired' => tls_server($expired),
    'other name (IP)' => tls_server($otherName),
    'other name (peer_name)' => tls_server($good[0], ['peer_name' => 'other.example']),
    'other name (host name)' => ['host' => 'localhost', 'port' => $otherName['port'], 'timeout' => 10.0,
        'tls' => ['cafile' => $certs['ca']['crt']]],
    'missing CA file' => tls_server($good[0], ['cafile' => $certs['dir'] . '/missing-ca.crt']),
    'plain client, TLS server' => ['host' => '127.0.0.1', 'port' => $good[0]['port'], 'timeout' => 10.0],
];
foreach ($cases as $name => $entry) {
    $entry['timeout'] = 20.0; // a failure that waited for it would show
    $redlock = new RedLock([$entry], 10, 1);
    [$lock, $ms] = rt_timed(fn () => $redlock->lock($key, 10000));
    $error = str_replace($certs['dir'], 'DIR', (string) $redlock->getLastErrors()[0]);
    $error = preg_replace('/^read: .+/', 'read: <the server dropped us>', $error);
    printf("%s: %s, %s%s\n", $name, $lock === false ? 'no lock' : 'LOCKED', $error, $ms < 15000 ? '' : ' (took the whole timeout)');
}

// Three servers that verify and two that do not: the lock forms, and the errors say why.
$redlock = new RedLock([tls_server($good[0]), tls_server($expired), tls_server($good[1]), tls_server($otherName),
    tls_server($good[2])], 10, 1);
$lock = $redlock->lock($key, 10000);
var_dump(is_array($lock));
$errors = $redlock->getLastErrors();
// Unless the quorum was decided before they failed.
var_dump(in_array($errors[1], ['connect: tls: certificate verify failed: certificate has expired', 'no reply needed'], true));
var_dump(in_array($errors[3], ['connect: tls: certificate verify failed: IP address mismatch', 'no reply needed'], true));
var_dump(tls_cmd($good[1]['port'], 'GET', $key) === $lock['token'], $redlock->unlock($lock));
?>
--EXPECT--
unknown CA: no lock, connect: tls: certificate verify failed: self-signed certificate in certificate chain
expired: no lock, connect: tls: certificate verify failed: certificate has expired
other name (IP): no lock, connect: tls: certificate verify failed: IP address mismatch
other name (peer_name): no lock, connect: tls: certificate verify failed: hostname mismatch
other name (host name): no lock, connect: tls: certificate verify failed: hostname mismatch
missing CA file: no lock, connect: tls: cannot load the CA file DIR/missing-ca.crt: No such file or directory
plain client, TLS server: no lock, read: <the server dropped us>
bool(true)
bool(true)
bool(true)
bool(true)
bool(true)
