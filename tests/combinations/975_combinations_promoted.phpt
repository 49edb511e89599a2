--TEST--
Combinations, promoted locks (lockShared() then promote(): a reader beside it is refused): every option combination (renewal x acquisition x addressing x quorum, generated) is refused with both options named, or converts, waits, excludes a second client, is renewed past 3.5 ttls or reported lost, and frees the resource on unlock()
--EXTENSIONS--
redlock
--FILE--
<?php
require __DIR__ . '/../inc/combinations.inc';
cx_run('promoted');
?>
--EXPECT--
promoted: 144 combinations: {"refused":36,"renewed":36,"lost":72,"waited":54,"run":0,"needs_scripts":0}, problems: 0
