--TEST--
No copy of the password stays in the process' memory once the RedLock objects are gone (pooled connections included): the AUTH frame is wiped once sent, the endpoint's copy when freed
--EXTENSIONS--
redlock
sodium
--SKIPIF--
<?php if (!function_exists('sodium_memzero')) die('skip sodium_memzero() is needed to wipe the test\'s own copies'); ?>
--FILE--
<?php
require __DIR__ . '/../inc/redlock_test.inc';
$password = 'pw-' . bin2hex(random_bytes(12));
$srv = rt_spawn_server(['--requirepass', $password]);
$secretFile = tempnam(sys_get_temp_dir(), 'rl123');
file_put_contents($secretFile, strrev($password)); // reversed: PHP's read buffers keep no copy
$ext = getenv('REDLOCK_TEST_EXTENSION') ?: realpath(__DIR__ . '/../../modules/redlock.so');

// The child reads the password from a file, uses it, wipes its own PHP copies, and waits to be
// dumped. Pooled (persistent) and private connections both.
$child = <<<'PHP'
$port = (int) $argv[1];
$password = strrev(file_get_contents($argv[2]));
foreach (['1', '0'] as $persistent) {
    ini_set('redlock.persistent', $persistent);
    $uri = "redis://:$password@127.0.0.1:$port?timeout=2";
    $r = new RedLock([$uri], 10, 1);
    $lock = $r->lock("rl123:$persistent", 10000);
    echo is_array($lock) && $r->unlock($lock) ? 'ok ' : 'FAILED ';
    unset($r);
    sodium_memzero($uri);
}
sodium_memzero($password);
echo "ready\n";
fgets(STDIN);
PHP;
// A plain child: through sh, so that valgrind (run-tests -m) does not trace it, and without the
// sanitizer preload or USE_ZEND_ALLOC=0 of scripts/sanitize.sh and valgrind.sh.
$env = array_diff_key(getenv(), array_flip(['LD_PRELOAD', 'ASAN_OPTIONS', 'UBSAN_OPTIONS', 'LSAN_OPTIONS', 'USE_ZEND_ALLOC']));
$proc = proc_open(['sh', '-c', 'exec "$0" "$@"', PHP_BINARY, '-n', '-d', "extension=$ext", '-r', $child, '--',
    (string) $srv['port'], $secretFile], [0 => ['pipe', 'r'], 1 => ['pipe', 'w'], 2 => ['pipe', 'w']], $pipes, null, $env);
echo trim((string) stream_get_line($pipes[1], 100, "\n")), "\n";
$pid = proc_get_status($proc)['pid'];
$core = sys_get_temp_dir() . "/rl123-core-" . getmypid();
exec('env -u LD_PRELOAD gcore -o ' . escapeshellarg($core) . ' ' . $pid . ' 2>&1', $out, $status);
fwrite($pipes[0], "\n");
proc_close($proc);
$file = "$core.$pid";
if ($status !== 0 || !is_file($file)) {
    rt_fatal('gcore failed: ' . implode("\n", $out));
}
// Streamed, with an overlap so that a copy split between two reads is still seen.
$hits = 0;
$in = fopen($file, 'rb');
$tail = '';
while (!feof($in)) {
    $chunk = $tail . fread($in, 1 << 20);
    $hits += substr_count($chunk, $password) - substr_count($tail, $password);
    $tail = substr($chunk, -(strlen($password) - 1));
}
fclose($in);
unlink($file);
unlink($secretFile);
echo "copies of the password in the child's memory: $hits\n";
?>
--EXPECT--
ok ok ready
copies of the password in the child's memory: 0
