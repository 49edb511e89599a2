--TEST--
run(): max_execution_time, a compile-time fatal, memory exhaustion, exit() and an uncaught Error inside $fn release the lock before the process ends
--EXTENSIONS--
redlock
--FILE--
<?php
require __DIR__ . '/../inc/redlock_test.inc';
$servers = var_export(rt_servers(5, 3.0), true);
// Started through sh, as test 015 does: under valgrind (run-tests -m) the children run natively, and
// with Zend's allocator (scripts/valgrind.sh exports USE_ZEND_ALLOC=0, which ignores memory_limit).
$php = 'env -u USE_ZEND_ALLOC ' . PHP_BINARY . ' ' . (getenv('TEST_PHP_EXTRA_ARGS') ?: '') . ' -d display_errors=1 -d error_reporting=-1';
$cases = [
    'max_execution_time' => 'set_time_limit(1); $until = microtime(true) + 30; while (microtime(true) < $until) {}',
    'compile-time fatal' => 'eval("function strlen() {}");',
    'memory exhausted' => 'ini_set("memory_limit", "32M"); $s = str_repeat("x", 64 << 20);',
    'exit()' => 'exit(3);',
    'uncaught Error' => 'no_such_function_anywhere();',
];
foreach ($cases as $name => $body) {
    $key = rt_key($name);
    $code = '$r = new RedLock(' . $servers . ', 10, 1);'
        . ' $r->run(' . var_export($key, true) . ', 60000, function ($lock) {'
        . ' echo "locked ", $lock["token"], "\n"; ' . $body . ' });'
        . ' echo "run() returned\n";';
    $start = microtime(true);
    $proc = proc_open("exec $php -r " . escapeshellarg($code), [1 => ['pipe', 'w'], 2 => ['pipe', 'w']], $pipes);
    $out = stream_get_contents($pipes[1]) . stream_get_contents($pipes[2]);
    $status = proc_close($proc);
    $seconds = microtime(true) - $start;
    // Checked right after the child is gone: the ttl (60 s) cannot have done it.
    $values = rt_values($key);
    $held = preg_match('/^locked ([0-9a-f]{48})$/m', $out, $m) ? $m[1] : null;
    $released = count(array_filter($values, fn ($v) => $v === null));
    preg_match('/(Fatal error: .*?) in /', $out, $fatal);
    echo "$name: exit status $status, ", $fatal[1] ?? 'no fatal error', "\n";
    echo '  it held the lock: ', $held !== null ? 'yes' : "no\n$out", ', gone from a majority at once: ',
        $released >= 3 ? 'yes' : "no ($released of 5)",
        ', from all 5: ', rt_eventually(fn () => rt_values($key) === array_fill(0, 5, null)) ? 'yes' : 'no',
        ', within the ttl: ', $seconds < 50 ? 'yes' : 'no', "\n";
}
?>
--EXPECTF--
max_execution_time: exit status 255, Fatal error: Maximum execution time of 1 second exceeded
  it held the lock: yes, gone from a majority at once: yes, from all 5: yes, within the ttl: yes
compile-time fatal: exit status 255, Fatal error: Cannot redeclare %Astrlen()
  it held the lock: yes, gone from a majority at once: yes, from all 5: yes, within the ttl: yes
memory exhausted: exit status 255, Fatal error: Allowed memory size of 33554432 bytes exhausted (tried to allocate %d bytes)
  it held the lock: yes, gone from a majority at once: yes, from all 5: yes, within the ttl: yes
exit(): exit status 3, no fatal error
  it held the lock: yes, gone from a majority at once: yes, from all 5: yes, within the ttl: yes
uncaught Error: exit status 255, Fatal error: Uncaught Error: Call to undefined function no_such_function_anywhere()
  it held the lock: yes, gone from a majority at once: yes, from all 5: yes, within the ttl: yes
