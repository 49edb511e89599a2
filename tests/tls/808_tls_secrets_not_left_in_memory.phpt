--TEST--
TLS: no copy of the AUTH password sent inside TLS, of the key's passphrase, or of the private key's PEM text stays in the process' memory once the RedLock objects are gone (pooled and private connections, a plain and an encrypted key): read from a core dump
--EXTENSIONS--
redlock
sodium
--SKIPIF--
<?php if (!function_exists('sodium_memzero')) die('skip sodium_memzero() is needed to wipe the test\'s own copies'); ?>
--FILE--
<?php
require __DIR__ . '/../inc/tls.inc';
$certs = tls_certs();
$password = 'pw-' . bin2hex(random_bytes(30));
$passphrase = 'pp-' . bin2hex(random_bytes(30));
$encrypted = $certs['dir'] . '/client-encrypted.key';
tls_openssl('pkey', '-in', $certs['client']['key'], '-aes256', '-passout', "pass:$passphrase", '-out', $encrypted);
// Lines of the keys' PEM text (the base64 body), as they sit in the files only.
$pemLines = [];
foreach ([$certs['client']['key'], $encrypted] as $file) {
    $body = array_values(array_filter(file($file, FILE_IGNORE_NEW_LINES), fn ($l) => !str_starts_with($l, '-----')));
    $pemLines[] = $body[1];
}
$srv = tls_spawn(null, true, ['--requirepass', $password]);
$secretFile = tempnam(sys_get_temp_dir(), 'rl808');
file_put_contents($secretFile, strrev($password) . "\n" . strrev($passphrase)); // reversed: PHP's read buffers keep no copy
$ext = getenv('REDLOCK_TEST_EXTENSION') ?: realpath(__DIR__ . '/../../modules/redlock.so');

$child = <<<'PHP'
[, $port, $secretFile, $ca, $crt, $key, $encrypted] = $argv;
[$password, $passphrase] = array_map('strrev', explode("\n", file_get_contents($secretFile)));
foreach (['1', '0'] as $persistent) {
    ini_set('redlock.persistent', $persistent);
    foreach ([['local_pk' => $key], ['local_pk' => $encrypted, 'passphrase' => $passphrase]] as $i => $pk) {
        $entry = ['host' => '127.0.0.1', 'port' => (int) $port, 'timeout' => 10.0, 'password' => $password,
            'tls' => ['cafile' => $ca, 'local_cert' => $crt] + $pk];
        $r = new RedLock([$entry], 10, 1);
        $lock = $r->lock("rl808:$persistent:$i", 10000);
        echo is_array($lock) && $r->unlock($lock) ? 'ok ' : 'FAILED ' . json_encode($r->getLastErrors());
        unset($r);
        sodium_memzero($entry['password']);
        if (isset($entry['tls']['passphrase'])) {
            sodium_memzero($entry['tls']['passphrase']);
        }
        unset($entry, $pk);
    }
}
sodium_memzero($password);
sodium_memzero($passphrase);
echo "ready\n";
fgets(STDIN);
PHP;
$env = array_diff_key(getenv(), array_flip(['LD_PRELOAD', 'ASAN_OPTIONS', 'UBSAN_OPTIONS', 'LSAN_OPTIONS', 'USE_ZEND_ALLOC']));
$proc = proc_open(['sh', '-c', 'exec "$0" "$@"', PHP_BINARY, '-n', '-d', "extension=$ext", '-r', $child, '--',
    (string) $srv['port'], $secretFile, $certs['ca']['crt'], $certs['client']['crt'], $certs['client']['key'], $encrypted],
    [0 => ['pipe', 'r'], 1 => ['pipe', 'w'], 2 => ['pipe', 'w']], $pipes, null, $env);
echo trim((string) stream_get_line($pipes[1], 4000, "\n")), "\n";
$pid = proc_get_status($proc)['pid'];
$core = sys_get_temp_dir() . "/rl808-core-" . getmypid();
exec('env -u LD_PRELOAD gcore -o ' . escapeshellarg($core) . ' ' . $pid . ' 2>&1', $out, $status);
fwrite($pipes[0], "\n");
proc_close($proc);
$file = "$core.$pid";
if ($status !== 0 || !is_file($file)) {
    rt_fatal('gcore failed: ' . implode("\n", $out));
}
// The secrets' last 32 characters: free() overwrites the first 16 bytes of a small block with its
// own pointers, so a freed copy no longer matches in full.
$needles = ['the AUTH password' => substr($password, -32), 'the passphrase' => substr($passphrase, -32),
    'the plain key\'s PEM text' => $pemLines[0], 'the encrypted key\'s PEM text' => $pemLines[1]];
$hits = array_fill_keys(array_keys($needles), 0);
$longest = max(array_map('strlen', $needles));
$in = fopen($file, 'rb');
$tail = '';
while (!feof($in)) {
    $chunk = $tail . fread($in, 1 << 20);
    foreach ($needles as $name => $needle) {
        $hits[$name] += substr_count($chunk, $needle) - substr_count($tail, $needle);
    }
    $tail = substr($chunk, -($longest - 1));
}
fclose($in);
unlink($file);
unlink($secretFile);
foreach ($hits as $name => $count) {
    echo "copies of $name in the child's memory: $count\n";
}
?>
--EXPECT--
ok ok ok ok ready
copies of the AUTH password in the child's memory: 0
copies of the passphrase in the child's memory: 0
copies of the plain key's PEM text in the child's memory: 0
copies of the encrypted key's PEM text in the child's memory: 0
