--TEST--
TLS: verification is on by default ('tls' => true uses the system's CAs, which do not know the test CA); 'verify_peer' => false (or verify_peer=0 in a rediss:// URI) accepts any certificate; 'verify_peer_name' => false still checks the chain but not the name
--EXTENSIONS--
redlock
--FILE--
<?php
require __DIR__ . '/../inc/tls.inc';
$certs = tls_certs();
$good = tls_spawn();
$expired = tls_spawn($certs['expired']);
$otherName = tls_spawn($certs['other_name']);
$key = rt_key();
$try = function (string|array $entry) use ($key) {
    $redlock = new RedLock([$entry], 10, 1);
    $lock = $redlock->lock($key, 10000);
    if ($lock !== false) {
        $redlock->unlock($lock);
        return 'locked';
    }
    return $redlock->getLastErrors()[0];
};
$at = fn (array $s) => ['host' => '127.0.0.1', 'port' => $s['port'], 'timeout' => 10.0];
echo $try($at($good) + ['tls' => true]), "\n";
echo $try("rediss://127.0.0.1:{$good['port']}?timeout=10"), "\n"; // reading the system's CAs is slow under valgrind
echo $try($at($good) + ['tls' => ['verify_peer' => false]]), "\n";
echo $try("rediss://127.0.0.1:{$good['port']}?timeout=10&verify_peer=0"), "\n";
echo $try($at($expired) + ['tls' => ['verify_peer' => false]]), "\n";
echo $try("rediss://127.0.0.1:{$expired['port']}?timeout=10&verify_peer=false"), "\n";
echo $try(tls_server($otherName, ['verify_peer_name' => false])), "\n";
echo $try(tls_server($expired, ['verify_peer_name' => false])), "\n";
echo $try($at($otherName) + ['tls' => ['verify_peer_name' => false]]), "\n";
echo $try($at($good) + ['tls' => false]) === 'locked' ? 'locked' : "'tls' => false: plain, refused by the TLS server", "\n";
?>
--EXPECT--
connect: tls: certificate verify failed: self-signed certificate in certificate chain
connect: tls: certificate verify failed: self-signed certificate in certificate chain
locked
locked
locked
locked
locked
connect: tls: certificate verify failed: certificate has expired
connect: tls: certificate verify failed: self-signed certificate in certificate chain
'tls' => false: plain, refused by the TLS server
