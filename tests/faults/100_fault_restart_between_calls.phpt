--TEST--
Fault: a server restarted between calls (empty, same port): the next call reconnects and succeeds
--EXTENSIONS--
redlock
--FILE--
<?php
require __DIR__ . '/../inc/reliability.inc';
$srv = rf_spawn_restartable();
/* retryCount 1: a single attempt, so a stale connection cannot hide behind a retry */
$redlock = new RedLock(rf_list([$srv['port']]), 10, 1);
$key = rt_key();

$lock = $redlock->lock($key, 10000);
var_dump(is_array($lock), $redlock->unlock($lock));

$srv = rf_restart($srv);
$lock = $redlock->lock($key, 10000);
var_dump(is_array($lock));
var_dump(rf_cmd($srv['port'], 'GET', $key) === $lock['token']);

/* A restart wipes the key (no persistence), so an unlock after it has nothing to delete. */
$srv = rf_restart($srv);
var_dump($redlock->unlock($lock));
/* ...and the connection after that is fine again */
$lock = $redlock->lock($key, 10000);
var_dump(is_array($lock), $redlock->unlock($lock), rf_cmd($srv['port'], 'GET', $key));
?>
--EXPECT--
bool(true)
bool(true)
bool(true)
bool(true)
bool(false)
bool(true)
bool(true)
NULL
