--TEST--
scripts/demo-stock.php redirected to a file (demo.sh > log 2>&1) keeps every line: the header, each "without lock" round, the RedLock round
--EXTENSIONS--
redlock
--FILE--
<?php
require __DIR__ . '/../inc/redlock_test.inc';
/* The demo's output went through stdout and its workers' stderr; with both on one file opened
 * without O_APPEND, proc_open() given STDERR seeked that file back to offset 0 before each worker
 * started, so the later lines overwrote the earlier ones and the log kept only the last. */
$servers = implode(',', array_map(fn ($e) => "$e[0]:$e[1]", array_slice(rt_endpoints(), 0, 3)));
$log = tempnam(sys_get_temp_dir(), 'redlock-demo-');
$php = PHP_BINARY . ' ' . (getenv('TEST_PHP_EXTRA_ARGS') ?: '');
/* The workers load the extension the way demo.sh tells them: REDLOCK_SO, taken from this run's -d. */
preg_match('/extension=(\S+redlock\.so)/', $php, $m);
$env = isset($m[1]) ? 'REDLOCK_SO=' . escapeshellarg($m[1]) . ' ' : '';
$cmd = 'env -u USE_ZEND_ALLOC ' . $env . $php . ' ' . escapeshellarg(__DIR__ . '/../../scripts/demo-stock.php')
    . ' ' . escapeshellarg($servers) . ' 40 2 > ' . escapeshellarg($log) . ' 2>&1';
exec($cmd, $_, $status);
$text = file_get_contents($log);
unlink($log);
$lines = explode("\n", rtrim($text, "\n"));
echo "exit $status\n";
echo preg_match('/^stock 40, 2 processes, each: read stock/', $lines[0]) ? "header first\n" : "header lost: $text\n";
$plain = preg_grep('/^without lock: sold \d+ of 40 /', $lines);
echo count($plain) >= 1 && count($plain) <= 3 ? "without-lock rounds kept\n" : "without-lock rounds lost: $text\n";
echo preg_match('/^with RedLock: sold 40 of 40, never oversold/', end($lines)) ? "RedLock round last\n" : "RedLock round: $text\n";
echo count($lines) === 2 + count($plain) ? "nothing else\n" : "other lines: $text\n";
?>
--EXPECT--
exit 0
header first
without-lock rounds kept
RedLock round last
nothing else
