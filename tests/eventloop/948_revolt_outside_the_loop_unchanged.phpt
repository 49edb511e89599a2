--TEST--
Revolt: outside the loop nothing changes: without Revolt loaded, and with it loaded but not running, lock() in {main} and in a Fiber started by hand waits by blocking as before (the Fiber is never suspended by a wait), with the same results
--EXTENSIONS--
redlock
--SKIPIF--
<?php require __DIR__ . '/../inc/revolt.inc'; if ($why = rt_revolt_skip_reason()) die("skip $why"); ?>
--FILE--
<?php
require __DIR__ . '/../inc/revolt.inc';

$key = rt_key();
$holder = new RedLock(rt_servers(3), 0, 1);
$held = $holder->lock($key, 10000);
$r = new RedLock(rt_servers(3), 100, 3, ['waitTimeout' => 300]);

function attempt(RedLock $r, string $key, string $where): void
{
    $t = hrtime(true);
    $lock = $r->lock($key, 1000);
    $ms = (hrtime(true) - $t) / 1e6;
    printf("%s: %s, waited its 300 ms: %s\n", $where, var_export($lock, true), var_export($ms >= 290, true));
}
function in_fiber(RedLock $r, string $key, string $where): void
{
    $fiber = new Fiber(fn () => attempt($r, $key, $where));
    $fiber->start();
    echo "  the Fiber ran to its end without suspending: ", var_export($fiber->isTerminated(), true), "\n";
}

attempt($r, $key, 'no Revolt, {main}');
in_fiber($r, $key, 'no Revolt, a Fiber');
var_dump(class_exists('Revolt\EventLoop', false));
rt_revolt_load();
Revolt\EventLoop::getDriver(); // loaded, not running
var_dump(class_exists('Revolt\EventLoop', false));
attempt($r, $key, 'Revolt loaded, {main}');
in_fiber($r, $key, 'Revolt loaded, a Fiber');
$holder->unlock($held);
$lock = $r->lock($key, 1000);
echo 'free: ', is_array($lock) ? 'locked' : 'not locked', "\n";
$r->unlock($lock);
?>
--EXPECT--
no Revolt, {main}: false, waited its 300 ms: true
no Revolt, a Fiber: false, waited its 300 ms: true
  the Fiber ran to its end without suspending: true
bool(false)
bool(true)
Revolt loaded, {main}: false, waited its 300 ms: true
Revolt loaded, a Fiber: false, waited its 300 ms: true
  the Fiber ran to its end without suspending: true
free: locked
