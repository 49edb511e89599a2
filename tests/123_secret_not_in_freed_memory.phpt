--TEST--
The password never stays in memory the C library frees: the AUTH frame is wiped once sent and before its buffer is freed or regrown (hiredis' freed output buffer kept it)
--EXTENSIONS--
redlock
--FILE--
<?php
require __DIR__ . '/redlock_test.inc';
$password = 'pw-' . bin2hex(random_bytes(12));
$srv = rt_spawn_server(['--requirepass', $password]);
$port = $srv['port'];

// The shim, built once into .run/bin/ (see tests/free_scan.c).
$src = __DIR__ . '/free_scan.c';
$so = __DIR__ . '/../.run/bin/free_scan.so';
if (!is_file($so) || filemtime($so) < filemtime($src)) {
    @mkdir(dirname($so), 0777, true);
    exec('cc -shared -fPIC -O1 -Wall -o ' . escapeshellarg("$so.tmp") . ' ' . escapeshellarg($src) . ' 2>&1', $out, $status);
    $status === 0 || rt_fatal('cannot build free_scan.c: ' . implode("\n", $out));
    rename("$so.tmp", $so);
}
$log = tempnam(sys_get_temp_dir(), 'rl123');
$ext = getenv('REDLOCK_TEST_EXTENSION') ?: realpath(__DIR__ . '/../modules/redlock.so');
// The child reads the password from a file (PHP strings live in Zend's allocator, not free()'s).
$secretFile = tempnam(sys_get_temp_dir(), 'rl123s');
file_put_contents($secretFile, $password);
$child = <<<'PHP'
$port = (int) getenv('RL123_PORT');
$password = file_get_contents(getenv('RL123_PASSWORD_FILE'));
foreach ([1, 0] as $persistent) {
    ini_set('redlock.persistent', (string) $persistent);
    foreach (range(1, 3) as $i) {
        $r = new RedLock(["redis://:$password@127.0.0.1:$port?timeout=2"], 10, 1);
        $lock = $r->lock("rl123:$persistent:$i", 10000);
        echo is_array($lock) && $r->unlock($lock) ? 'ok ' : 'FAILED ';
        unset($r);
    }
}
PHP;
$env = getenv() + ['RL123_PORT' => (string) $port, 'RL123_PASSWORD_FILE' => $secretFile];
$env['LD_PRELOAD'] = realpath($so);
$env['FREE_SCAN_NEEDLE_FILE'] = $secretFile;
$env['FREE_SCAN_LOG'] = $log;
$proc = proc_open([PHP_BINARY, '-n', '-d', "extension=$ext", '-r', $child], [1 => ['pipe', 'w'], 2 => ['pipe', 'w']],
    $pipes, null, $env);
echo stream_get_contents($pipes[1]), "\n", stream_get_contents($pipes[2]);
proc_close($proc);
echo 'blocks freed with the password in them: ', count(file($log, FILE_IGNORE_NEW_LINES | FILE_SKIP_EMPTY_LINES)), "\n";
@unlink($log);
@unlink($secretFile);
?>
--EXPECT--
ok ok ok ok ok ok 
blocks freed with the password in them: 0
