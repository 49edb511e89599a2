--TEST--
autoExtend: a fatal error inside run()'s $fn, and max_execution_time inside it: the lock is released and the renewal thread joined before the shutdown functions run
--EXTENSIONS--
redlock
--ENV--
ASAN_OPTIONS=verify_asan_link_order=0:detect_leaks=0:abort_on_error=0:exitcode=86
--FILE--
<?php
/* --ENV--: as in 521, LeakSanitizer (scripts/sanitize.sh) would report what PHP itself leaves behind
 * the fatal errors of the child processes (the frames it bailed out of); the other sanitizers stay on. */
require __DIR__ . '/../inc/watch.inc';
$key = rt_key();
$ext = realpath(__DIR__ . '/../../modules/redlock.so');
$servers = var_export(rt_servers(5, 1.0), true);
$settle = var_export(2.0 * rt_load_scale(), true); // as wt_threads_settled(): 2 s x the load per core
foreach (['fatal' => 'trigger_error("the work failed", E_USER_ERROR);', 'timeout' => 'set_time_limit(1); while (true) { $x = hash("sha256", "x"); }'] as $what => $body) {
    $file = sys_get_temp_dir() . "/redlock-706-$what-" . getmypid() . '.php';
    file_put_contents($file, <<<PHP
<?php
\$r = new RedLock($servers, 10, 0, ['autoExtend' => true, 'persistent' => false]);
register_shutdown_function(function () {
    /* The release joined the renewal thread before this runs, but the kernel wakes pthread_join() before it
     * unlists the ended task (wt_threads_settled()): wait for it to leave, bounded. A thread still running
     * (not stopped by the release) is stopped only at the module's request end, after this: still counted. */
    \$deadline = microtime(true) + $settle;
    while (count(glob('/proc/self/task/*')) > 1 && microtime(true) < \$deadline) {
        usleep(10000);
    }
    echo 'shutdown: threads ', count(glob('/proc/self/task/*')), "\\n";
});
\$r->run('$key-$what', 600, function (array \$lock) {
    usleep(400000); // past the first renewal
    echo 'in fn: threads ', count(glob('/proc/self/task/*')), "\\n";
    $body
});
PHP);
    echo "$what:\n", preg_replace('/^\s+|(?<=\n)\s+/', '', shell_exec(escapeshellarg(PHP_BINARY) . ' -n -d display_errors=1 -d error_reporting=24575 -d fatal_error_backtraces=0 -d extension=' . escapeshellarg($ext) . ' ' . escapeshellarg($file) . ' 2>&1'));
    echo 'released: ', count(array_filter(rt_values("$key-$what"), fn ($v) => $v === null)), " of 5\n";
    unlink($file);
}
?>
--EXPECTF--
fatal:
in fn: threads 2
%AFatal error: the work failed in %s on line %d
shutdown: threads 1
released: 5 of 5
timeout:
in fn: threads 2
%AFatal error: Maximum execution time of 1 second exceeded in %s on line %d
shutdown: threads 1
released: 5 of 5
