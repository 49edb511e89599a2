--TEST--
memory:// servers and fork(): a forked child's RedLockMemory::fail() (and recover(), reset()) before it makes a memory:// server of its own changes nothing of its parent's servers, which only the parent fails; before, the child shut down the listening socket and the connections it inherited, which are the parent's too (shutdown() acts on the socket, not on the child's copy of it): the parent's server refused ever after, and the parent's open connections were cut
--EXTENSIONS--
redlock
pcntl
--SKIPIF--
<?php if (PHP_OS_FAMILY === 'Windows') die('skip memory:// needs unix sockets'); ?>
--FILE--
<?php
require __DIR__ . '/../inc/redlock_test.inc';
$r = new RedLock(['memory://cf1', 'memory://cf2', 'memory://cf3'], 0, 0);
$held = $r->lock('kept', 60000); // the parent's connections to cf1-cf3 are open
var_dump(is_array($held));
foreach (['fail' => fn () => RedLockMemory::fail('cf1', 'refuse'),
    'fail, then recover' => function () { RedLockMemory::fail('cf1', 'refuse'); RedLockMemory::recover('cf1'); },
    'reset' => fn () => RedLockMemory::reset()] as $what => $call) {
    $pid = pcntl_fork();
    if ($pid === 0) {
        $call();
        exit(0);
    }
    pcntl_waitpid($pid, $status);
    $fresh = new RedLock(['memory://cf1'], 0, 0); // a new connection to cf1
    // validity() returns at its quorum: the last server may not have been waited for ('no reply needed')
    $lock = $fresh->lock(rt_key('fresh'), 10000);
    printf("the child's %s: the parent's open connections %s, a new one %s\n", $what,
        $r->validity($held) > 0 && !array_filter($r->getLastErrors(), fn ($e) => $e !== null && $e !== 'no reply needed') ? 'answer' : 'cut: ' . json_encode($r->getLastErrors()),
        is_array($lock) ? 'answers' : 'refused: ' . json_encode($fresh->getLastErrors()));
    if (is_array($lock)) {
        $fresh->unlock($lock);
    }
}
echo "-- the parent fails its own\n";
RedLockMemory::fail('cf1', 'refuse');
$fresh = new RedLock(['memory://cf1'], 0, 0);
var_dump($fresh->lock(rt_key('refused'), 10000), $fresh->getLastErrors());
RedLockMemory::recover('cf1');
var_dump($r->unlock($held));
?>
--EXPECT--
bool(true)
the child's fail: the parent's open connections answer, a new one answers
the child's fail, then recover: the parent's open connections answer, a new one answers
the child's reset: the parent's open connections answer, a new one answers
-- the parent fails its own
bool(false)
array(1) {
  [0]=>
  string(27) "connect: Connection refused"
}
bool(true)
