--TEST--
validity() and extend() with a paused server: answered by the others without waiting for it; with two paused, bounded by the timeout
--EXTENSIONS--
redlock
--FILE--
<?php
require __DIR__ . '/../inc/redlock_test.inc';
$servers = [rt_spawn_server(), rt_spawn_server(), rt_spawn_server()];
$list = array_map(fn ($s) => ['127.0.0.1', $s['port'], 1.0], $servers);
$key = rt_key();
$r = new RedLock($list, 10, 1);
$lock = $r->lock($key, 10000);
var_dump(is_array($lock));
rt_signal($servers[2], 'STOP');

// extend() is decided by the two live servers at once.
$start = hrtime(true);
[$extended, $ms] = rt_timed(fn () => $r->extend($lock, 20000));
var_dump(is_array($extended), $ms < 800); // not waiting for the paused server's 1 s timeout
// validity() does not wait for the paused one either: a quorum of answers decides.
$left = $r->validity($lock);
$ms = (hrtime(true) - $start) / 1e6;
var_dump($left > 15000, $ms < 800, $ms < 3000);
// Two of three paused: no majority can be known.
rt_signal($servers[1], 'STOP');
[$left, $ms] = rt_timed(fn () => $r->validity($lock));
var_dump($left, $ms < 3000);
rt_signal($servers[1], 'CONT');
rt_signal($servers[2], 'CONT');
var_dump($r->unlock($lock));
?>
--EXPECT--
bool(true)
bool(true)
bool(true)
bool(true)
bool(true)
bool(true)
bool(false)
bool(true)
bool(true)
