--TEST--
Combinations, who acts on the lock (issue 24): every lock kind x the object that took it, another object of the process, another process, the array restored from serialize() and from json_encode() x scripts on and off, on memory:// servers and (scripts on) real ones, and (issue 32) real ones where the first server refuses the user's scripts from the moment the lock is taken (the taker and another object acting): validity() says held, extend() with the lock's ttl gives a new validity and with another ttl one too with scripts and a ValueError naming $ttl without, no rival takes it, the actor's unlock() releases it and the taker's validity() is then false; kinds that need scripts are a RedLockException without them, fencing a ValueError naming both options
--EXTENSIONS--
redlock
pcntl
posix
--SKIPIF--
<?php if (PHP_OS_FAMILY === 'Windows') die('skip memory:// needs unix sockets'); ?>
--FILE--
<?php
require __DIR__ . '/../inc/combinations_holders.inc';
ch_run();
RedLockMemory::reset();
?>
--EXPECT--
{"cells":119,"held and handed over":94,"needs scripts":20,"refused options":5}, problems: 0
