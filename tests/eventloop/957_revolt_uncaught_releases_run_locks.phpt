--TEST--
Revolt: an uncaught exception in the event loop (a fatal error) or exit() from a callback ends the script while Fibers are suspended inside run(): their locks are released before the process ends, not left for their ttl
--EXTENSIONS--
redlock
--SKIPIF--
<?php require __DIR__ . '/../inc/revolt.inc'; if ($why = rt_revolt_skip_reason()) die("skip $why"); ?>
--FILE--
<?php
require __DIR__ . '/../inc/revolt.inc';
$servers = var_export(rt_servers(5, 3.0), true);
$php = 'env -u USE_ZEND_ALLOC ' . PHP_BINARY . ' ' . (getenv('TEST_PHP_EXTRA_ARGS') ?: '') . ' -d display_errors=1 -d log_errors=0';
$endings = [
    'an uncaught exception' => 'throw new RuntimeException("a callback failed")',
    'exit()' => 'exit(3)',
];
foreach ($endings as $name => $ending) {
    $keys = [rt_key("$name:a"), rt_key("$name:b")];
    // Two Fibers of one object suspended inside run() (60 s ttl), then a callback ends the script.
    $code = 'require ' . var_export(__DIR__ . '/../inc/revolt.inc', true) . '; rt_revolt_load();'
        . ' use Revolt\EventLoop;'
        . ' $r = new RedLock(' . $servers . ', 10, 1, ["autoExtend" => true]);'
        . ' foreach (' . var_export($keys, true) . ' as $key) {'
        . '   rt_async(fn () => $r->run($key, 60000, function ($lock) {'
        . '     echo "locked\n"; $s = EventLoop::getSuspension(); EventLoop::delay(30, fn () => $s->resume()); $s->suspend(); }));'
        . ' }'
        . ' EventLoop::delay(0.3, function () { ' . $ending . '; });'
        . ' EventLoop::run(); echo "not reached\n";';
    $start = microtime(true);
    $proc = proc_open("exec $php -r " . escapeshellarg($code), [1 => ['pipe', 'w'], 2 => ['pipe', 'w']], $pipes);
    $out = stream_get_contents($pipes[1]) . stream_get_contents($pipes[2]);
    $status = proc_close($proc);
    $seconds = microtime(true) - $start;
    $values = array_map(fn ($key) => rt_values($key), $keys); // right after the child is gone
    preg_match('/(Fatal error: .*?) in /', $out, $fatal);
    echo "$name: exit status $status, ", $fatal[1] ?? 'no fatal error', "\n";
    echo '  both locked: ', substr_count($out, "locked\n") === 2 ? 'yes' : "no\n$out",
        ', gone from a majority at once: ', min(array_map(fn ($v) => count(array_filter($v, fn ($x) => $x === null)), $values)) >= 3 ? 'yes' : 'no',
        ', from all 5: ', rt_eventually(fn () => array_map(fn ($key) => rt_values($key), $keys) === [array_fill(0, 5, null), array_fill(0, 5, null)]) ? 'yes' : 'no',
        ', within the ttl: ', $seconds < 50 ? 'yes' : 'no', "\n";
}
?>
--EXPECTF--
an uncaught exception: exit status 255, Fatal error: Uncaught RuntimeException: a callback failed
  both locked: yes, gone from a majority at once: yes, from all 5: yes, within the ttl: yes
exit(): exit status 3, no fatal error
  both locked: yes, gone from a majority at once: yes, from all 5: yes, within the ttl: yes
