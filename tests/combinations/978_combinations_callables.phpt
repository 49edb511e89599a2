--TEST--
Combinations, the application's callables: what a callable does (returns, throws, calls exit(), suspends its Fiber, calls the same object again) x which callable (run()'s $fn, the observer, onLoss) x scripts on/off, on memory:// servers, each cell in its own process and as docs/guide/run.md#what-a-callable-may-do says (generated: tests/inc/callables.inc)
--EXTENSIONS--
redlock
--SKIPIF--
<?php if (PHP_OS_FAMILY === 'Windows') die('skip memory:// needs unix sockets'); ?>
--FILE--
<?php
require __DIR__ . '/../inc/callables.inc';
cb_run_cells();
?>
--EXPECT--
30 cells (5 actions x 3 callables x scripts on/off), problems: 0
