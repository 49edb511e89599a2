--TEST--
Callables: a fatal error inside an observer (memory exhausted) ends the script there (before: the script went on after lock(), as if nothing happened), and the shutdown functions that still run find the object usable, their calls observed again (the observer's frame leaves with its stack)
--EXTENSIONS--
redlock
--SKIPIF--
<?php if (PHP_OS_FAMILY === 'Windows') die('skip memory:// needs unix sockets'); ?>
--FILE--
<?php
require __DIR__ . '/../inc/callables.inc';
[$status, $out] = cb_child('$r = new RedLock(["memory://a", "memory://b", "memory://c"]); $lock = null; $fatal = true;'
    . ' $r->setObserver(function ($c) use (&$fatal) { echo "observer: {$c["call"]}\n";'
    . '   if ($c["call"] === "lock" && $fatal) { $fatal = false; ini_set("memory_limit", "32M"); $s = str_repeat("x", 64 << 20); } });'
    . ' register_shutdown_function(function () use (&$r) { $l = $r->lock("s", 1000); $u = $r->unlock($l);'
    . '   echo "shutdown: lock and unlock ", var_export($u, true), ", keys ", json_encode(array_keys(RedLockMemory::keys("a"))), "\n"; });'
    . ' $lock = $r->lock("r", 10000); echo "after lock()\n";');
echo "exit status $status\n", preg_replace('/ in .+ on line \d+/', '', $out), "\n";
?>
--EXPECTF--
exit status 255
observer: lock

Fatal error: Allowed memory size of %d bytes exhausted (tried to allocate %d bytes)
observer: lock
observer: unlock
shutdown: lock and unlock true, keys ["r"]
