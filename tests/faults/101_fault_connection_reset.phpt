--TEST--
Fault: the connection is reset between calls (CLIENT KILL) and in the middle of a call (CLIENT KILL while paused, SIGKILL while stopped)
--EXTENSIONS--
redlock
--FILE--
<?php
require __DIR__ . '/../inc/reliability.inc';
$srv = rt_spawn_server();
$port = $srv['port'];
/* a long timeout: each reset below must end its call long before it (bounds generous for valgrind) */
$redlock = new RedLock(rf_list([$port], 10.0), 10, 1);
$key = rt_key();

echo "between calls\n";
$lock = $redlock->lock($key, 10000);
var_dump(rf_cmd($port, 'CLIENT', 'KILL', 'TYPE', 'normal') >= 1);
var_dump($redlock->unlock($lock), rf_cmd($port, 'GET', $key));

echo "during a call: CLIENT KILL while our SET waits behind CLIENT PAUSE WRITE\n";
/* the killer first: starting it can take a while under valgrind, and must not eat the pause */
rf_kill_blocked_client_later($port);
var_dump(rf_cmd($port, 'CLIENT', 'PAUSE', '15000', 'WRITE'));
[$lock, $ms] = rt_timed(fn () => $redlock->lock($key, 10000));
var_dump($lock, $ms < 8000);
rf_cmd($port, 'CLIENT', 'UNPAUSE');
/* the next call reconnects */
$lock = $redlock->lock($key, 10000);
var_dump(is_array($lock), $redlock->unlock($lock));

echo "during a call: server stopped, then SIGKILLed while we wait\n";
rt_signal($srv, 'STOP');
rf_later(0.3, 'kill -9 ' . $srv['pid']);
[$lock, $ms] = rt_timed(fn () => $redlock->lock($key, 10000));
var_dump($lock, $ms < 8000);

echo "2 of 3 survive a mid-call reset on the third\n";
$a = rt_spawn_server();
$b = rt_spawn_server();
$c = rt_spawn_server();
$three = new RedLock(rf_list([$a['port'], $b['port'], $c['port']], 3.0), 10, 1);
rt_signal($c, 'STOP');
rf_later(0.2, 'kill -9 ' . $c['pid']);
$lock = $three->lock($key, 10000);
var_dump(is_array($lock), $three->unlock($lock));
?>
--EXPECT--
between calls
bool(true)
bool(true)
NULL
during a call: CLIENT KILL while our SET waits behind CLIENT PAUSE WRITE
string(2) "OK"
bool(false)
bool(true)
bool(true)
bool(true)
during a call: server stopped, then SIGKILLed while we wait
bool(false)
bool(true)
2 of 3 survive a mid-call reset on the third
bool(true)
bool(true)
