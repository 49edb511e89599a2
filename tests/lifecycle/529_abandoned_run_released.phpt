--TEST--
run(): a fatal error while Fibers are suspended inside run() (on two objects, autoExtend or not) abandons their stacks; their locks are released at the end of the request anyway, not left for their ttl
--EXTENSIONS--
redlock
--FILE--
<?php
require __DIR__ . '/../inc/redlock_test.inc';
$servers = var_export(rt_servers(5, 3.0), true);
// As test 522: through sh, natively under valgrind too.
$php = 'env -u USE_ZEND_ALLOC ' . PHP_BINARY . ' ' . (getenv('TEST_PHP_EXTRA_ARGS') ?: '') . ' -d display_errors=1 -d log_errors=0';
$endings = [
    'E_USER_ERROR' => 'trigger_error("the main code failed", E_USER_ERROR);',
    'max_execution_time' => 'set_time_limit(1); $until = microtime(true) + 30; while (microtime(true) < $until) {}',
];
foreach ($endings as $name => $ending) {
    $keys = [rt_key("$name:a"), rt_key("$name:b")];
    $code = '$objects = [new RedLock(' . $servers . ', 10, 1), new RedLock(' . $servers . ', 10, 1, ["autoExtend" => true])];'
        . ' $fibers = [];'
        . ' foreach (' . var_export($keys, true) . ' as $i => $key) {'
        . '   $fibers[] = $f = new Fiber(fn () => $objects[$i]->run($key, 60000, function () { echo "locked\n"; Fiber::suspend(); }));'
        . '   $f->start();'
        . ' }'
        . $ending . ' echo "not reached\n";';
    $start = microtime(true);
    $proc = proc_open("exec $php -r " . escapeshellarg($code), [1 => ['pipe', 'w'], 2 => ['pipe', 'w']], $pipes);
    $out = stream_get_contents($pipes[1]) . stream_get_contents($pipes[2]);
    $status = proc_close($proc);
    $seconds = microtime(true) - $start;
    $values = array_map(fn ($key) => rt_values($key), $keys); // right after the process is gone
    preg_match('/(Fatal error: .*?) in /', $out, $fatal);
    echo "$name: exit status $status, ", $fatal[1] ?? 'no fatal error', "\n";
    echo '  both locked: ', substr_count($out, "locked\n") === 2 ? 'yes' : "no\n$out",
        ', gone from a majority at once: ', min(array_map(fn ($v) => count(array_filter($v, fn ($x) => $x === null)), $values)) >= 3 ? 'yes' : 'no',
        ', from all 5: ', rt_eventually(fn () => array_map(fn ($key) => rt_values($key), $keys) === [array_fill(0, 5, null), array_fill(0, 5, null)]) ? 'yes' : 'no',
        ', within the ttl: ', $seconds < 50 ? 'yes' : 'no', "\n";
}
?>
--EXPECT--
E_USER_ERROR: exit status 255, Fatal error: the main code failed
  both locked: yes, gone from a majority at once: yes, from all 5: yes, within the ttl: yes
max_execution_time: exit status 255, Fatal error: Maximum execution time of 1 second exceeded
  both locked: yes, gone from a majority at once: yes, from all 5: yes, within the ttl: yes
