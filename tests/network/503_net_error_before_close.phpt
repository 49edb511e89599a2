--TEST--
Network: an error reply the server sends right before closing (maxclients) is reported as the server's text
--EXTENSIONS--
redlock
pcntl
--FILE--
<?php
/* With --maxclients 1 and its one slot taken, redis-server accepts a new connection, writes
 * "-ERR max number of clients reached" and closes it. That text is why the vote failed; the
 * close that follows it is not. */
require __DIR__ . '/../inc/faultproxy.inc';
fp_alarm(8);
$full = fp_spawn_server(['--maxclients', '1']);
$b = fp_spawn_server();
$c = fp_spawn_server();
$slot = stream_socket_client("tcp://127.0.0.1:{$full['port']}", $errno, $errstr, 2.0);
fwrite($slot, "*1\r\n$4\r\nPING\r\n");
echo "the slot is ours: ", trim((string) fgets($slot)), "\n";

$redlock = new RedLock(rf_list([$full['port'], $b['port'], $c['port']], 1.0), 10, 1);
$lock = $redlock->lock(rt_key(), 10000);
echo "locked on the other two: ", var_export(is_array($lock), true), "\n";
var_dump($redlock->unlock($lock));
// Through that server alone, so that its vote is awaited (with the other two it is not needed
// and may say "no reply needed").
$solo = new RedLock(rf_list([$full['port']], 1.0), 10, 1);
var_dump($solo->lock(rt_key('solo'), 10000));
echo "error for the full server: ", var_export($solo->getLastErrors()[0], true), "\n";
var_dump($solo->unlock($lock));
echo "unlock's error for it: ", var_export($solo->getLastErrors()[0], true), "\n";
?>
--EXPECT--
the slot is ours: +PONG
locked on the other two: true
bool(true)
bool(false)
error for the full server: 'ERR max number of clients reached'
bool(false)
unlock's error for it: 'ERR max number of clients reached'
