--TEST--
memory:// servers and fork(): a child forked while the servers' thread runs a command (DEBUG SLEEP 0.5 holds it there) ends normally; before, it inherited the thread's mutex locked and its exit waited for ever (tests/combinations/979 timed out once under load, its forked child never ending). The parent's servers keep their keys and answer afterwards
--EXTENSIONS--
redlock
pcntl
posix
--SKIPIF--
<?php if (PHP_OS_FAMILY === 'Windows') die('skip memory:// needs unix sockets'); ?>
--FILE--
<?php
require __DIR__ . '/../inc/redlock_test.inc';
$r = new RedLock(['memory://fw1', 'memory://fw2', 'memory://fw3'], 0, 1);
$held = $r->lock('kept', 60000);
var_dump(is_array($held));

/* The servers' thread busy with one command for 0.5 s (a raw client of fw1), then a fork. */
$link = stream_socket_client('unix://' . rt_memory_socket('fw1'), $errno, $errstr, 2.0);
fwrite($link, "*3\r\n\$5\r\nDEBUG\r\n\$5\r\nSLEEP\r\n\$3\r\n0.5\r\n");
usleep(100000);
$pid = pcntl_fork();
if ($pid === 0) {
    exit(0); /* the module's shutdown runs: it takes the servers' mutex */
}
$until = microtime(true) + 5 * rt_time_scale();
while (($done = pcntl_waitpid($pid, $status, WNOHANG)) === 0 && microtime(true) < $until) {
    usleep(10000);
}
echo "the child ended: ", var_export($done === $pid, true), "\n";
if ($done !== $pid) {
    posix_kill($pid, SIGKILL);
    pcntl_waitpid($pid, $status);
}
stream_set_timeout($link, 5);
var_dump(rt_read_reply($link));
fclose($link);
var_dump($r->validity($held) > 0, $r->lock('kept', 1000), $r->unlock($held));

echo "-- DEBUG SLEEP's arguments\n";
$link = stream_socket_client('unix://' . rt_memory_socket('fw2'), $errno, $errstr, 2.0);
stream_set_timeout($link, 5);
fwrite($link, "*3\r\n\$5\r\nDEBUG\r\n\$5\r\nSLEEP\r\n\$0\r\n\r\n");
$reply = rt_read_reply($link);
echo $reply instanceof Throwable ? $reply->getMessage() : var_export($reply, true), "\n";
fwrite($link, "*3\r\n\$5\r\nDEBUG\r\n\$5\r\nSLEEP\r\n\$1\r\n0\r\n");
var_dump(rt_read_reply($link));
?>
--EXPECT--
bool(true)
the child ended: true
string(2) "OK"
bool(true)
bool(false)
bool(true)
-- DEBUG SLEEP's arguments
ERR DEBUG SLEEP takes seconds
string(2) "OK"
