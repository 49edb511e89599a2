--TEST--
Option quorum: 5 of 5 fails with one server down; 1 of 5 succeeds with four down
--EXTENSIONS--
redlock
--FILE--
<?php
require __DIR__ . '/../inc/redlock_test.inc';
$down = fn () => ['127.0.0.1', rt_free_port(), 0.5];

// quorum 5 with the fifth server unreachable: no lock, and the four keys set are released again.
$key = rt_key('five');
$servers = array_merge(rt_servers(4, 3.0), [$down()]);
$strict = new RedLock($servers, 10, 1, ['quorum' => 5]);
var_dump($strict->lock($key, 10000));
var_dump(rt_eventually(fn () => rt_values($key, 4) === array_fill(0, 4, null)));
// The default majority (3) succeeds on the same servers.
$majority = new RedLock($servers, 10, 1);
var_dump(is_array($lock = $majority->lock($key, 10000)), $majority->unlock($lock));
// quorum 5 with all five up succeeds.
$all = new RedLock(rt_servers(5, 3.0), 10, 1, ['quorum' => 5]);
var_dump(is_array($lock = $all->lock($key, 10000)), $all->validity($lock) > 9000, $all->unlock($lock));

// quorum 1 with four servers unreachable: the one that answers is enough.
$key = rt_key('one');
$servers = array_merge(rt_servers(1, 3.0), [$down(), $down(), $down(), $down()]);
$lenient = new RedLock($servers, 10, 1, ['quorum' => 1]);
$lock = $lenient->lock($key, 10000);
var_dump(is_array($lock), rt_values_are($key, [$lock['token']], 1));
var_dump(is_array($lenient->extend($lock, 10000)), $lenient->validity($lock) > 9000);
var_dump($lenient->unlock($lock), rt_values_are($key, [null], 1));
// The default quorum (3) cannot be reached there.
var_dump((new RedLock($servers, 10, 1))->lock($key, 10000));
?>
--EXPECT--
bool(false)
bool(true)
bool(true)
bool(true)
bool(true)
bool(true)
bool(true)
bool(true)
bool(true)
bool(true)
bool(true)
bool(true)
bool(true)
bool(false)
