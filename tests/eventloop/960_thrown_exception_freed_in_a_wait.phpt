--TEST--
Revolt: the exception thrown into a Fiber's wait ($fiber->throw()), which the waiter remembers, is let go without harm when another Fiber's call waits: a destructor it frees (a guard whose __destruct unlocks, held only by that exception) runs once and its unlock() works, the other call works, and nothing is released twice (before: the guard's own wait released the exception again, a double free; and its unlock() threw FiberError where PHP forbids a Fiber switch)
--INI--
error_reporting=E_ALL & ~E_DEPRECATED
--EXTENSIONS--
redlock
--SKIPIF--
<?php require __DIR__ . '/../inc/revolt.inc'; if ($why = rt_revolt_skip_reason()) die("skip $why"); ?>
--FILE--
<?php
require __DIR__ . '/../inc/revolt.inc';
rt_revolt_load();
use Revolt\EventLoop;

final class Guard
{
    public function __construct(private RedLock $r, private array $lock) {}
    public function __destruct()
    {
        // it may run inside the other call: the Revolt waiter runs the loop's PHP code while it waits, and
        // an opcode boundary there is where what a wait let go is freed; once, and its own wait blocks
        // where PHP forbids a Fiber switch
        $GLOBALS['events'][] = 'guard unlocks: ' . var_export($this->r->unlock($this->lock), true);
    }
}

$scale = rt_revolt_time_scale();
$key = rt_key();
$holder = new RedLock(rt_servers(3), 0, 1);
$held = $holder->lock($key, (int) (20000 * $scale));
$r = new RedLock(rt_servers(3), 100, 1, ['waitTimeout' => (int) (10000 * $scale)]);
$guards = new RedLock(rt_servers(2));
$other = new RedLock(rt_servers(2));
$events = [];
$fiber = rt_async(function () use ($r, $guards, $key, &$events) {
    $g = new Guard($guards, $guards->lock(rt_key('guarded'), 10000));
    try {
        $events[] = 'waits';
        $r->lock($key, 10000);
    } catch (LogicException $e) {
        $events[] = 'thrown into';
        $e->guard = $g;                                // the exception alone holds the guard now
        unset($g, $e);
    }
});
EventLoop::delay(0.2 * $scale, function () use ($fiber) { $fiber->throw(new LogicException('stop waiting')); });
EventLoop::delay(0.4 * $scale, function () use ($other, &$events) {
    rt_async(function () use ($other, &$events) {  // a wait of another call: the remembered exception is let go
        $l = $other->lock(rt_key('other'), 1000);
        $events[] = 'other call: ' . ($l ? 'locked' : 'not locked');
        $l && $other->unlock($l);
    });
});
EventLoop::run();
$holder->unlock($held);
$events[] = 'after: ' . (($l = $guards->lock(rt_key('guarded'), 1000)) ? 'guarded key free' : 'guarded key held');
$l && $guards->unlock($l);
echo implode("\n", $events), "\n";
?>
--EXPECTF--
waits
thrown into
guard unlocks: true
other call: locked
after: guarded key free
