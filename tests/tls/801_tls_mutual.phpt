--TEST--
TLS: mutual TLS (tls-auth-clients yes): without a client certificate the server refuses (a per-server error, no exception); with one it works, also with an encrypted key and its passphrase; a wrong passphrase or a key that does not fit is a clear error
--EXTENSIONS--
redlock
--FILE--
<?php
require __DIR__ . '/../inc/tls.inc';
$certs = tls_certs();
$passphrase = 'pp-' . bin2hex(random_bytes(6));
$encrypted = $certs['dir'] . '/client-encrypted.key';
tls_openssl('pkey', '-in', $certs['client']['key'], '-aes256', '-passout', "pass:$passphrase", '-out', $encrypted);
$servers = [tls_spawn(null, true), tls_spawn(null, true), tls_spawn(null, true)];
$key = rt_key();
$client = ['local_cert' => $certs['client']['crt'], 'local_pk' => $certs['client']['key']];

function attempt(array $entries, string $key): void
{
    $redlock = new RedLock($entries, 10, 1);
    $lock = $redlock->lock($key, 10000);
    // The quorum may be decided before the last server answers: count what did answer.
    $errors = array_filter($redlock->getLastErrors(), fn ($e) => $e !== 'no reply needed');
    $yes = count(array_filter($errors, fn ($e) => $e === null));
    // Refused: the server's alert, or, when our first write meets the connection it closed, the reset.
    $errors = preg_replace('/^(read: tls: tlsv13 alert certificate required|(read|write): (tls: )?Connection reset by peer)$/',
        'refused: certificate required', array_filter($errors));
    echo $lock === false ? 'no lock' : 'locked', ", $yes yes, errors: ", json_encode(array_values(array_unique($errors))), "\n";
    if ($lock !== false) {
        $redlock->unlock($lock);
    }
}

attempt(array_map(fn ($s) => tls_server($s), $servers), $key);
attempt(array_map(fn ($s) => tls_server($s, $client), $servers), $key);
attempt(array_map(fn ($s) => tls_server($s, ['local_cert' => $certs['client']['crt'], 'local_pk' => $encrypted,
    'passphrase' => $passphrase]), $servers), $key);
// The certificate and key in one file, as local_cert alone.
$both = $certs['dir'] . '/client-both.pem';
file_put_contents($both, file_get_contents($certs['client']['crt']) . file_get_contents($certs['client']['key']));
$ca = rawurlencode($certs['ca']['crt']);
attempt(array_map(fn ($s) => "rediss://127.0.0.1:{$s['port']}?cafile=$ca&local_cert=" . rawurlencode($both), $servers), $key);

try {
    $wrong = new RedLock([tls_server($servers[0], ['local_cert' => $certs['client']['crt'], 'local_pk' => $encrypted,
        'passphrase' => 'wrong'])], 10, 1);
    var_dump($wrong->lock($key, 1000));
    $error = $wrong->getLastErrors()[0];
    echo str_starts_with($error, 'connect: tls: cannot load the private key ') ? "wrong passphrase: cannot load the key\n" : "$error\n";
    echo str_contains($error, 'wrong') ? "passphrase shown\n" : "passphrase not shown\n";
    $mismatch = new RedLock([tls_server($servers[0], ['local_cert' => $certs['client']['crt'],
        'local_pk' => $certs['server']['key']])], 10, 1);
    var_dump($mismatch->lock($key, 1000), $mismatch->getLastErrors());
    $missing = new RedLock([tls_server($servers[0], ['local_cert' => $certs['dir'] . '/none.crt'])], 10, 1);
    var_dump($missing->lock($key, 1000));
    echo str_replace($certs['dir'], 'DIR', $missing->getLastErrors()[0]), "\n";
} catch (Throwable $e) {
    echo get_class($e), ': ', $e->getMessage(), "\n";
}
?>
--EXPECTF--
no lock, 0 yes, errors: ["refused: certificate required"]
locked, %r[23]%r yes, errors: []
locked, %r[23]%r yes, errors: []
locked, %r[23]%r yes, errors: []
bool(false)
wrong passphrase: cannot load the key
passphrase not shown
bool(false)
array(1) {
  [0]=>
  string(%d) "connect: tls: the private key does not fit the certificate: key values mismatch"
}
bool(false)
connect: tls: cannot load the certificate DIR/none.crt: No such file or directory
