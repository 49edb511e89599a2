--TEST--
Combinations, fenced locks: every option combination (renewal x acquisition x addressing x quorum, generated) is refused with both options named, or acquires, waits, excludes a second client, is renewed past 3.5 ttls or reported lost, and frees the resource on unlock(); run() renews, reports a loss after or (abortOnLoss) inside $fn, and unlock() inside $fn is no loss
--EXTENSIONS--
redlock
--FILE--
<?php
require __DIR__ . '/../inc/combinations.inc';
cx_run('fenced');
?>
--EXPECT--
fenced: 144 combinations: {"refused":72,"renewed":24,"lost":48,"waited":36,"run":12,"needs_scripts":0}, problems: 0
