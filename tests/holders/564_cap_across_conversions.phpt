--TEST--
maxExtensions is the lock's, whatever its form (issue 24, suspected): with 'maxExtensions' => 2, a shared lock extended once keeps one extension through promote() and demote(); the next extend() is the last, the one after it false (capped, no round trip). f334b16 gave each new form a fresh cap: two more extensions after the round trip
--EXTENSIONS--
redlock
--SKIPIF--
<?php if (PHP_OS_FAMILY === 'Windows') die('skip memory:// needs unix sockets'); ?>
--FILE--
<?php
$r = new RedLock(['memory://h564a', 'memory://h564b', 'memory://h564c'], 0, 1, ['maxExtensions' => 2]);
$lock = $r->lockShared('doc', 10000);
var_dump(is_array($lock = $r->extend($lock, 10000)));   // 1 of 2
$writer = $r->promote($lock, 10000);
$reader = $r->demote($writer, 10000);
var_dump(is_array($writer), is_array($reader));
var_dump(is_array($reader = $r->extend($reader, 10000))); // 2 of 2
var_dump($r->extend($reader, 10000));                      // capped
var_dump($r->unlock($reader));
RedLockMemory::reset();
?>
--EXPECT--
bool(true)
bool(true)
bool(true)
bool(true)
bool(false)
bool(true)
