--TEST--
memory:// servers behave as Redis for the combination chapter: every lock kind (exclusive, multi, shared, semaphore, fenced, promoted, demoted) with every option combination of tests/combinations (its run() part left to 990), against the test double instead of real servers, with the same results; and each with 'scripts' => false, which the memory servers' native commands allow (SET NX PX, MSETEX, SET IFEQ PX, DELIFEQ): the exclusive kinds work without Lua, fencing is a ValueError naming both options, the other kinds a RedLockException
--EXTENSIONS--
redlock
--SKIPIF--
<?php
if (PHP_OS_FAMILY === 'Windows') {
    die('skip memory:// needs unix sockets');
}
if (getenv('REDLOCK_MATRIX_LEG')) {
    die('skip [host only] memory servers are the same on every platform; the host suite runs it');
}
if (getenv('USE_ZEND_ALLOC') === '0') {
    die('skip [memory checker] the chapter against memory servers is behaviour (tests/combinations runs under the checkers); 990 and 991 cover the memory servers\' memory');
}
?>
--FILE--
<?php
const CX_MEMORY = true;
const CX_NO_RUN = true; // run() is lock + unlock, covered against memory servers by 990; its chapter takes 3.5 ttls a combination
require __DIR__ . '/../inc/combinations.inc';
foreach (['exclusive', 'multi', 'shared', 'semaphore', 'fenced', 'promoted', 'demoted'] as $kind) {
    cx_run($kind);
}
?>
--EXPECT--
exclusive: 192 combinations: {"refused":48,"renewed":48,"lost":96,"waited":72,"run":0,"needs_scripts":0}, problems: 0
multi: 192 combinations: {"refused":48,"renewed":48,"lost":96,"waited":72,"run":0,"needs_scripts":0}, problems: 0
shared: 192 combinations: {"refused":48,"renewed":36,"lost":72,"waited":54,"run":0,"needs_scripts":36}, problems: 0
semaphore: 192 combinations: {"refused":48,"renewed":36,"lost":72,"waited":54,"run":0,"needs_scripts":36}, problems: 0
fenced: 192 combinations: {"refused":120,"renewed":24,"lost":48,"waited":36,"run":0,"needs_scripts":0}, problems: 0
promoted: 192 combinations: {"refused":48,"renewed":36,"lost":72,"waited":54,"run":0,"needs_scripts":36}, problems: 0
demoted: 192 combinations: {"refused":48,"renewed":36,"lost":72,"waited":54,"run":0,"needs_scripts":36}, problems: 0
