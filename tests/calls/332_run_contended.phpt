--TEST--
run(): throws RedLockException naming the resource and the attempts when the lock cannot be had
--EXTENSIONS--
redlock
--FILE--
<?php
require __DIR__ . '/../inc/redlock_test.inc';
$key = rt_key();
$holder = new RedLock(rt_servers(5, 3.0));
$held = $holder->lock($key, 10000);
$r = new RedLock(rt_servers(5, 3.0), 10, 3);
$called = false;
try {
    $r->run($key, 1000, function () use (&$called) { $called = true; });
} catch (RedLockException $e) {
    var_dump($e instanceof RuntimeException, $called);
    echo str_replace($key, 'KEY', $e->getMessage()), "\n";
}
var_dump(rt_values_are($key, array_fill(0, 5, $held['token'])));

$other = rt_key('free');
try {
    (new RedLock(rt_servers(5, 3.0), 10, 0))->run([$other, $key], 1000, fn () => 1);
} catch (RedLockException $e) {
    echo str_replace([$other, $key], ['FREE', 'KEY'], $e->getMessage()), "\n";
}
var_dump(rt_values_are($other, array_fill(0, 5, null)));
$holder->unlock($held);
?>
--EXPECT--
bool(true)
bool(false)
Could not lock the resource "KEY" within 3 attempts
bool(true)
Could not lock the resources "FREE", "KEY" within 1 attempt
bool(true)
