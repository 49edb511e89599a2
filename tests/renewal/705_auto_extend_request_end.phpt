--TEST--
autoExtend under php -S: a request that ends holding a renewed lock (returning normally, or by a fatal error) leaves no renewal thread and no socket behind in the worker, and the lock is renewed no more (it expires)
--EXTENSIONS--
redlock
--FILE--
<?php
require __DIR__ . '/../inc/watch.inc';
$key = rt_key();
$servers = var_export(rt_servers(5, 1.0), true);
$dir = sys_get_temp_dir() . '/redlock-705-' . getmypid();
@mkdir($dir);
file_put_contents("$dir/router.php", <<<PHP
<?php
\$sockets = function () {
    \$n = 0;
    foreach (glob('/proc/self/fd/*') as \$fd) {
        \$n += str_starts_with((string) @readlink(\$fd), 'socket:') ? 1 : 0;
    }
    return \$n;
};
if (\$_GET['do'] === 'check') {
    echo 'threads ', count(glob('/proc/self/task/*')), ' sockets ', \$sockets(), "\\n";
    return;
}
\$GLOBALS['r'] = new RedLock($servers, 10, 0, ['autoExtend' => true, 'persistent' => false]);
\$GLOBALS['lock'] = \$GLOBALS['r']->lock('$key-' . \$_GET['do'], 600);
usleep(400000); // past the first renewal: the thread is connected
echo \$GLOBALS['lock'] ? 'locked' : 'not locked', ', threads ', count(glob('/proc/self/task/*')), "\\n";
if (\$_GET['do'] === 'fatal') {
    this_function_does_not_exist();
}
PHP);
$web = rt_free_port();
$ext = realpath(__DIR__ . '/../../modules/redlock.so');
$proc = proc_open([PHP_BINARY, '-n', '-d', "extension=$ext", '-d', 'display_errors=1',
    '-S', "127.0.0.1:$web", "$dir/router.php"], [0 => ['pipe', 'r'], 1 => ['file', '/dev/null', 'w'], 2 => ['file', '/dev/null', 'w']], $pipes);
$get = function (string $query) use ($web) {
    $ctx = stream_context_create(['http' => ['ignore_errors' => true, 'timeout' => 120]]);
    $deadline = microtime(true) + 120;
    while (microtime(true) < $deadline) {
        $body = @file_get_contents("http://127.0.0.1:$web/?$query", false, $ctx);
        if ($body !== false) {
            return trim(preg_replace('/\s+/', ' ', strip_tags($body)));
        }
        usleep(100000);
    }
    rt_fatal('php -S did not answer');
};
$baseline = $get('do=check');
/* The server's threads and sockets once the last request's end has settled: the request's end joined the
 * renewal thread, but the kernel wakes pthread_join() before it unlists the ended task (wt_threads_settled()),
 * so a check sent at once can still count it. Polled until it reads as before, for at most 2 s x the load per
 * core; a thread or socket that outlives its request stays, and is reported. */
$settled = function () use ($get, $baseline): string {
    $deadline = microtime(true) + 2.0 * rt_load_scale();
    while (($now = $get('do=check')) !== $baseline && microtime(true) < $deadline) {
        usleep(20000);
    }
    return $now;
};
echo $get('do=hold'), "\n";
echo ($now = $settled()) === $baseline ? "after a normal end: as before\n" : "after a normal end: $now (before: $baseline)\n";
echo $get('do=fatal'), "\n";
echo ($now = $settled()) === $baseline ? "after a fatal error: as before\n" : "after a fatal error: $now (before: $baseline)\n";
// Nobody renews them any more: both expire and another client gets them.
$other = new RedLock(rt_servers(5, 1.0), 10, 0);
foreach (['hold', 'fatal'] as $what) {
    $got = false;
    wt_until(function () use ($other, $key, $what, &$got) { return (bool) ($got = $other->lock("$key-$what", 1000)); }, 30, "$what expiring");
    echo "$what: ", $got ? 'expired, taken by another client' : 'still held', "\n";
}
proc_terminate($proc);
$deadline = microtime(true) + 30;
while (proc_get_status($proc)['running'] && microtime(true) < $deadline) {
    usleep(50000);
}
if (proc_get_status($proc)['running']) {
    proc_terminate($proc, 9);
}
proc_close($proc);
@unlink("$dir/router.php");
@rmdir($dir);
?>
--EXPECTF--
locked, threads 2
after a normal end: as before
locked, threads 2 Fatal error: %sthis_function_does_not_exist()%s
after a fatal error: as before
hold: expired, taken by another client
fatal: expired, taken by another client
