--TEST--
Combinations, events during a hold (issue 32): every lock kind x 'fork in the callable' (run()'s $fn takes the kind's lock under autoExtend, forks, and the child ends with exit(0): the parent's lock of the kind and run()'s own lock stay held, validity() and no rival, and the parent's unlock() and run() release them; real servers with scripts, memory:// without) and x 'member restarted' (a private member of three restarted empty while every kind is held by autoExtend objects: renewal puts each lock back on it within a few renewal periods, no onLoss, no rival wins); generated (tests/inc/combinations_events.inc)
--EXTENSIONS--
redlock
pcntl
--SKIPIF--
<?php if (PHP_OS_FAMILY === 'Windows') die('skip memory:// needs unix sockets'); ?>
--FILE--
<?php
require __DIR__ . '/../inc/combinations_events.inc';
ce_run();
RedLockMemory::reset();
?>
--EXPECT--
{"cells":21,"held through it":16,"needs scripts":4,"refused options":1}, problems: 0
