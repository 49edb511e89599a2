--TEST--
The test clock belongs to the memory servers' world: RedLockMemory::advance() is refused (an Error naming how many) while an object on servers other than memory:// exists, so a real server's lease is never moved (before: the object on real Redis stopped renewing and a second client took its lock); an object with a real server (a mixed list too) is refused while the clock is moved; reset() always works; memory-only objects advance freely
--EXTENSIONS--
redlock
--SKIPIF--
<?php if (PHP_OS_FAMILY === 'Windows') die('skip memory:// needs unix sockets'); ?>
--FILE--
<?php
require __DIR__ . '/../inc/redlock_test.inc';
$real = rt_servers(3, 1.0);
$memory = ['memory://a', 'memory://b', 'memory://c'];

echo "-- a lock on real servers, renewed, while a test moves the clock\n";
$holder = new RedLock($real, 10, 3, ['autoExtend' => true]);
$lock = $holder->lock($key = rt_key('clock'), 3000);
echo rt_throws(fn () => RedLockMemory::advance(60000)), "\n";
$rival = new RedLock($real, 10, 1);
$taken = false;
for ($until = microtime(true) + 4; !$taken && microtime(true) < $until;) {
    $taken = is_array($rival->lock($key, 1000));
    usleep(100000);
}
echo 'a second client took the lock: ', var_export($taken, true), ', still valid: ', var_export($holder->validity($lock) > 0, true), "\n";
$holder->unlock($lock);
unset($holder, $rival, $lock);

echo "-- no object on real servers: the clock moves, and real objects wait for reset()\n";
RedLockMemory::reset();
$m = new RedLock($memory);
$l = $m->lock('m', 5000);
RedLockMemory::advance(6000);
var_dump($m->validity($l));
echo rt_throws(fn () => new RedLock($real)), "\n";
echo rt_throws(fn () => new RedLock(['memory://a', $real[0], $real[1]])), "\n";
RedLockMemory::advance(0); // not a move
RedLockMemory::reset();
$again = new RedLock(['memory://a', $real[0], $real[1]]);
echo rt_throws(fn () => RedLockMemory::advance(1)), "\n";
$other = new RedLock($real);
echo rt_throws(fn () => RedLockMemory::advance(1)), "\n";
unset($again, $other);
RedLockMemory::advance(1);
RedLockMemory::reset();
echo "done\n";
?>
--EXPECT--
-- a lock on real servers, renewed, while a test moves the clock
Error: RedLockMemory::advance(): 1 RedLock object on servers other than memory:// exists in this process, and the test clock moves the whole process's clock: their leases would run out early (they would stop renewing and lose their locks). Free them first, or use memory:// servers only
a second client took the lock: false, still valid: true
-- no object on real servers: the clock moves, and real objects wait for reset()
bool(false)
Error: RedLock::__construct(): the test clock is moved (RedLockMemory::advance()), and an object on servers other than memory:// would see its leases run out early: call RedLockMemory::reset() first, or use memory:// servers only
Error: RedLock::__construct(): the test clock is moved (RedLockMemory::advance()), and an object on servers other than memory:// would see its leases run out early: call RedLockMemory::reset() first, or use memory:// servers only
Error: RedLockMemory::advance(): 1 RedLock object on servers other than memory:// exists in this process, and the test clock moves the whole process's clock: their leases would run out early (they would stop renewing and lose their locks). Free them first, or use memory:// servers only
Error: RedLockMemory::advance(): 2 RedLock objects on servers other than memory:// exist in this process, and the test clock moves the whole process's clock: their leases would run out early (they would stop renewing and lose their locks). Free them first, or use memory:// servers only
done
