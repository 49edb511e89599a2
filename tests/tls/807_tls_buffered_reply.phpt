--TEST--
TLS: a reply larger than the reader's buffer arrives in one TLS record; the bytes OpenSSL has decrypted but not handed over (invisible to poll()) are still read at once, not left until the timeout
--EXTENSIONS--
redlock
--FILE--
<?php
require __DIR__ . '/../inc/tls.inc';
$certs = tls_certs();
$port = rt_free_port();
// A TLS stand-in for Redis: every command gets a 12,000-byte error line (one TLS record; our
// reader takes 1 KiB at a time), except SET, whose reply is that line and then +OK for the
// next one. Serves one connection.
$fake = <<<'PHP'
[$port, $crt, $key] = [$argv[1], $argv[2], $argv[3]];
$context = stream_context_create(['ssl' => ['local_cert' => $crt, 'local_pk' => $key]]);
$server = stream_socket_server("tls://127.0.0.1:$port", $errno, $errstr, STREAM_SERVER_BIND | STREAM_SERVER_LISTEN, $context);
echo "ready\n";
$client = @stream_socket_accept($server, 20);
if ($client === false) exit(1);
$long = '-ERR ' . str_repeat('x', 12000) . "\r\n";
$sets = 0;
while (($header = fgets($client)) !== false) {
    $args = [];
    for ($i = (int) substr($header, 1); $i > 0; $i--) {
        $len = (int) substr(fgets($client), 1);
        $args[] = substr(stream_get_contents($client, $len + 2), 0, $len);
    }
    $name = strtoupper($args[0] ?? '');
    fwrite($client, $name === 'SET' && $sets++ > 0 ? "+OK\r\n" : $long);
}
PHP;
$proc = proc_open([PHP_BINARY, '-n', '-d', 'extension=openssl', '-r', $fake, '--', (string) $port,
    $certs['server']['crt'], $certs['server']['key']], [1 => ['pipe', 'w'], 2 => ['pipe', 'w']], $pipes);
if (trim((string) fgets($pipes[1])) !== 'ready') {
    // PHP built with openssl statically: no extension to load.
    proc_close($proc);
    $proc = proc_open([PHP_BINARY, '-n', '-r', $fake, '--', (string) $port, $certs['server']['crt'],
        $certs['server']['key']], [1 => ['pipe', 'w'], 2 => ['pipe', 'w']], $pipes);
    fgets($pipes[1]);
}
// Under valgrind the handshake alone takes seconds (the stand-in's PHP is traced too): both scale,
// the timeout up to the 60 s a server's timeout may be.
$redlock = new RedLock([tls_server(['port' => $port], [], ['timeout' => min(60.0, 10.0 * rt_time_scale())])], 10, 1);
[$lock, $ms] = rt_timed(fn () => $redlock->lock(rt_key(), 30000));
$error = $redlock->getLastErrors()[0];
var_dump($lock, substr($error, 0, 12), strlen($error) > 100);
// A handshake and 12 kB take a few ms; the bytes left in OpenSSL would wait for the 10 s timeout.
echo $ms < 1500 * rt_time_scale() ? "read without waiting for the timeout\n" : "waited $ms ms\n";
// The same connection carries the next call: the rest of the long reply was taken in.
$lock = $redlock->lock(rt_key('b'), 30000);
var_dump(is_array($lock), $redlock->getLastErrors());
proc_terminate($proc);
proc_close($proc);
?>
--EXPECT--
bool(false)
string(12) "ERR xxxxxxxx"
bool(true)
read without waiting for the timeout
bool(true)
array(1) {
  [0]=>
  NULL
}
