--TEST--
inspect() on memory:// servers (issue 26, item 4): they answer TYPE, PTTL, HKEYS, GET and MGET in MULTI/EXEC: each kind read (readers and slot holders by token); the ttl follows the test clock; a lock whose ttl ran out is free (an expired lock), its fence kept; one server failed leaves a quorum; two failed (refused or erroring, or silent so that the one answer comes first): null; an error-answering server is no answer
--EXTENSIONS--
redlock
--SKIPIF--
<?php if (PHP_OS_FAMILY === 'Windows') die('skip memory:// needs unix sockets'); ?>
--FILE--
<?php
$servers = ['memory://i532a', 'memory://i532b', 'memory://i532c'];
$r = new RedLock($servers, 0, 1);
$line = fn (?array $i) => $i === null ? 'null' : json_encode(['held' => $i['held'], 'kind' => $i['kind'],
    'holders' => $i['holders'], 'fence' => $i['fence'], 'quorum answered' => $i['servers'] >= 2]);

echo "-- each kind\n";
echo $line($r->inspect('free')), "\n";
$ex = $r->lock('ex', 1000);
$i = $r->inspect('ex');
echo $line($i), ' ', var_export($i['ttl'] > 600 && $i['ttl'] <= 1000, true), "\n";
RedLockMemory::advance(400);
$i = $r->inspect('ex');
echo $line($i), ' ', var_export($i['ttl'] > 200 && $i['ttl'] <= 600, true), "\n";
$r->lockShared('sh', 1000);
$r->lockShared('sh', 1000);
$r->lockShared('sh', 2000);
echo $line($r->inspect('sh')), "\n";
$r->lockSemaphore('sem', 4, 1000);
echo $line($r->inspect('sem', 4)), "\n";
$f = new RedLock($servers, 0, 1, ['fencing' => true]);
$fl = $f->lock('fe', 1000);
echo $line($r->inspect('fe')), "\n";

echo "-- expired\n";
RedLockMemory::advance(1100);
echo $line($r->inspect('ex')), ' ', var_export($r->isLocked('ex'), true), "\n";
echo $line($r->inspect('fe')), "\n";
echo $line($r->inspect('sem', 4)), "\n";
$i = $r->inspect('sh'); // the 2000 ms reader is still there
echo $line($i), ' ', var_export($i['ttl'] > 400 && $i['ttl'] <= 900, true), "\n";

echo "-- servers failing\n";
$lock = $r->lock('down', 5000);
RedLockMemory::fail('i532a');
echo $line($r->inspect('down')), "\n";
RedLockMemory::fail('i532b', 'error');
echo $line($r->inspect('down')), ' ', var_export($r->isLocked('down'), true), "\n";
RedLockMemory::recover('i532a');
RedLockMemory::recover('i532b');
echo $line($r->inspect('down')), "\n";
// silent servers answer only at their timeout: c's answer (held) comes first, every time, and one answer of three is no quorum
RedLockMemory::fail('i532a', 'silent');
RedLockMemory::fail('i532b', 'silent');
$t = microtime(true);
echo $line($r->inspect('down')), ' ', var_export($r->isLocked('down'), true), ' ', var_export(microtime(true) - $t < 4, true), "\n";
?>
--EXPECT--
-- each kind
{"held":false,"kind":null,"holders":0,"fence":null,"quorum answered":true}
{"held":true,"kind":"exclusive","holders":1,"fence":null,"quorum answered":true} true
{"held":true,"kind":"exclusive","holders":1,"fence":null,"quorum answered":true} true
{"held":true,"kind":"shared","holders":3,"fence":null,"quorum answered":true}
{"held":true,"kind":"semaphore","holders":1,"fence":null,"quorum answered":true}
{"held":true,"kind":"exclusive","holders":1,"fence":1,"quorum answered":true}
-- expired
{"held":false,"kind":null,"holders":0,"fence":null,"quorum answered":true} false
{"held":false,"kind":null,"holders":0,"fence":1,"quorum answered":true}
{"held":false,"kind":null,"holders":0,"fence":null,"quorum answered":true}
{"held":true,"kind":"shared","holders":3,"fence":null,"quorum answered":true} true
-- servers failing
{"held":true,"kind":"exclusive","holders":1,"fence":null,"quorum answered":true}
null NULL
{"held":true,"kind":"exclusive","holders":1,"fence":null,"quorum answered":true}
null NULL true
