--TEST--
TLS: the pool is keyed by the TLS settings: the same settings reuse the pooled TLS connection; another CA file, peer name, client certificate or verification off connect anew; a connection opened with verification off is never handed to an entry that verifies (the expired certificate is then refused); a plain entry never gets a TLS connection
--EXTENSIONS--
redlock
--INI--
redlock.persistent=1
--FILE--
<?php
require __DIR__ . '/../inc/tls.inc';
$certs = tls_certs();
$srv = tls_spawn(null, false);
$port = $srv['port'];
$key = rt_key();
$use = function (string|array $server) use ($key) {
    $redlock = new RedLock([$server], 10, 1);
    $lock = $redlock->lock($key, 10000);
    $ok = $lock !== false && $redlock->unlock($lock);
    return $ok ? 'ok' : $redlock->getLastErrors()[0];
};
$connects = fn () => (int) tls_info($port, 'total_connections_received');
$base = $connects() + 1; // the INFO link itself counts
$step = function (string $what, string|array $server) use ($use, $connects, &$base) {
    $result = $use($server);
    $now = $connects();
    printf("%-30s %s, new connections: %d\n", $what, $result, $now - $base);
    $base = $now + 1;
};
$caCopy = $certs['dir'] . '/ca-copy.crt';
copy($certs['ca']['crt'], $caCopy);
$ca = rawurlencode($certs['ca']['crt']);

$step('first', tls_server($srv));
$step('same settings', tls_server($srv));
$step('same, as a rediss:// URI', "rediss://127.0.0.1:$port?timeout=10&cafile=$ca");
$step('another CA file', tls_server($srv, ['cafile' => $caCopy]));
$step('peer_name', tls_server($srv, ['peer_name' => 'localhost']));
$step('client certificate', tls_server($srv, ['local_cert' => $certs['client']['crt'], 'local_pk' => $certs['client']['key']]));
$step('verify_peer off', tls_server($srv, ['verify_peer' => false]));
$step('verify_peer off again', tls_server($srv, ['verify_peer' => false]));
$step('verify_peer_name off', tls_server($srv, ['verify_peer_name' => false]));
$step('plain (no tls)', ['host' => '127.0.0.1', 'port' => $port, 'timeout' => 10.0]);

// An expired certificate: accepted with verification off, and that connection is pooled; an
// entry that verifies must not get it.
$expired = tls_spawn($certs['expired']);
$e = $expired['port'];
echo $use(tls_server($expired, ['verify_peer' => false])), "\n";
echo $use(tls_server($expired)), "\n";
echo $use(tls_server($expired, ['verify_peer' => false])), "\n";
?>
--EXPECTF--
first                          ok, new connections: 1
same settings                  ok, new connections: 0
same, as a rediss:// URI       ok, new connections: 0
another CA file                ok, new connections: 1
peer_name                      ok, new connections: 1
client certificate             ok, new connections: 1
verify_peer off                ok, new connections: 1
verify_peer off again          ok, new connections: 0
verify_peer_name off           ok, new connections: 1
plain (no tls)                 read: %s, new connections: %d
ok
connect: tls: certificate verify failed: certificate has expired
ok
