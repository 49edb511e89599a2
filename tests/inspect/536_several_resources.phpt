--TEST--
inspect() of several resources (issue 26, item 4): held when any of them is (another lock may take one alone), with the least ttl of those held; a multi-resource lock is held; none held: free; the ttl of a 2000 ms lock beside a 9000 ms one is the 2000 ms one's
--EXTENSIONS--
redlock
--SKIPIF--
<?php if (PHP_OS_FAMILY === 'Windows') die('skip memory:// needs unix sockets'); ?>
--FILE--
<?php
$r = new RedLock(['memory://i536a', 'memory://i536b', 'memory://i536c'], 0, 1, ['scripts' => false]);
var_dump($r->inspect(['a', 'b'])['held']);
$a = $r->lock('a', 9000);
$i = $r->inspect(['a', 'b']);
var_dump($i['held'], $i['ttl'] > 6000);
$b = $r->lock('b', 2000);
$i = $r->inspect(['a', 'b']);
var_dump($i['held'], $i['ttl'] > 0 && $i['ttl'] <= 2000);
$r->unlock($a);
$r->unlock($b);
$both = $r->lock(['c', 'd'], 3000);
var_dump($r->isLocked(['c', 'd']), $r->isLocked('d'), $r->isLocked(['a', 'b']));
?>
--EXPECT--
bool(false)
bool(true)
bool(true)
bool(true)
bool(true)
bool(true)
bool(true)
bool(false)
