--TEST--
inspect() honours the "prefix" option (issue 26, item 4): an object with prefix "app1:" sees its own lock on "jobs" and not another prefix's; an object without a prefix sees it as "app1:jobs"
--EXTENSIONS--
redlock
--FILE--
<?php
require __DIR__ . '/../inc/redlock_test.inc';
$name = rt_key('jobs');
$one = new RedLock(rt_servers(), 0, 1, ['prefix' => 'app1:']);
$two = new RedLock(rt_servers(), 0, 1, ['prefix' => 'app2:']);
$bare = new RedLock(rt_servers(), 0, 1);
$lock = $one->lock($name, 5000);
var_dump($one->isLocked($name), $two->isLocked($name), $bare->isLocked($name), $bare->isLocked("app1:$name"));
var_dump($one->inspect([$name])['held'], $two->inspect($name)['held']);
$one->unlock($lock);
var_dump($one->isLocked($name));
?>
--EXPECT--
bool(true)
bool(false)
bool(false)
bool(true)
bool(true)
bool(false)
bool(false)
