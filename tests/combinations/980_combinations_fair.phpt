--TEST--
Combinations, fair waiting (issue 36): a fair lock held while waiters queue (one behind the holders, two elsewhere), released by the taker, another fair object, an object without "fair", the array restored from serialize() and json_encode(), a forked child; run() whose $fn throws, locks the same resource again; Fibers (Revolt) sharing one object, run()'s $fn forking a child that exit(0)s, a Fiber destroyed mid-wait; a member restarted or stopped (SIGSTOP) while waiters queue; the waiters' scripts revoked by ACL on a minority and a majority: the waiters get the lock in their order (or false within waitTimeout with scripts refused by a majority), a child's exit neither releases the parent's lock nor takes its waiters out of the queue, and the queue is left clean (inspect()['waiters'] 0, no queue or heartbeat key); generated (tests/inc/combinations_fair.inc)
--EXTENSIONS--
redlock
pcntl
posix
--SKIPIF--
<?php require __DIR__ . '/../inc/revolt.inc'; if ($why = rt_revolt_skip_reason()) die("skip $why"); ?>
--FILE--
<?php
require __DIR__ . '/../inc/revolt.inc';
rt_revolt_load();
require __DIR__ . '/../inc/combinations_fair.inc';
cf_run();
?>
--EXPECT--
14 cells, problems: 0
