--TEST--
Revolt: a Fiber destroyed while it waits in lock() (its loop stopped and dropped, the cycle collected): the wait ends at once, its finally runs, no descriptor is left open, and the object's connections serve the next call
--EXTENSIONS--
redlock
--SKIPIF--
<?php require __DIR__ . '/../inc/revolt.inc'; if ($why = rt_revolt_skip_reason()) die("skip $why"); ?>
--FILE--
<?php
require __DIR__ . '/../inc/revolt.inc';
rt_revolt_load();
use Revolt\EventLoop;

$key = rt_key();
$holder = new RedLock(rt_servers(3), 0, 1);
$held = $holder->lock($key, 10000);
$r = new RedLock(rt_servers(3), 200, 1, ['waitTimeout' => 5000, 'persistent' => false]);
var_dump($r->lock(rt_key('warm-up'), 1000) !== false); // its connections are open from here on
$fds = fn () => count(scandir('/proc/self/fd'));
$before = $fds();

$state = new ArrayObject(['finally' => false, 'returned' => false]);
$fiber = rt_async(function () use ($r, $key, $state) {
    try {
        $r->lock($key, 5000);
        $state['returned'] = true;
    } finally {
        $state['finally'] = true;
    }
});
EventLoop::delay(0.2, fn () => EventLoop::getDriver()->stop());
$t = hrtime(true);
EventLoop::run(); // stopped at 0.2 s, the Fiber still waiting in lock()
echo 'the loop was not held up by the wait: ', var_export((hrtime(true) - $t) / 1e6 < 1000, true), "\n";
echo 'the Fiber waits: ', var_export($fiber->isSuspended(), true), "\n";

// Drop the Fiber and its loop: nothing reachable refers to them any more.
unset($fiber);
EventLoop::setDriver((new Revolt\EventLoop\DriverFactory())->create());
$t = hrtime(true);
gc_collect_cycles();
// 200 ms x the time and load scales, kept under 4 s: a destruction that waited for the wait takes its 5 s
echo 'destroyed at once: ', var_export((hrtime(true) - $t) / 1e6 < min(4000, 200 * rt_revolt_time_scale() * rt_load_scale()), true), "\n";
echo 'finally ran: ', var_export($state['finally'], true), ', lock() returned: ', var_export($state['returned'], true), "\n";
echo 'descriptors left open: ', max(0, $fds() - $before), "\n";

$holder->unlock($held);
$lock = $r->lock($key, 1000);
echo 'the next call: ', is_array($lock) ? 'locked' : 'not locked', ', unlock: ', var_export($r->unlock($lock), true), "\n";
// And in a Fiber on the new loop.
rt_async(function () use ($r, $key) {
    $lock = $r->lock($key, 1000);
    echo 'in a Fiber again: ', is_array($lock) ? 'locked' : 'not locked', ', unlock: ', var_export($r->unlock($lock), true), "\n";
});
EventLoop::run();
?>
--EXPECT--
bool(true)
the loop was not held up by the wait: true
the Fiber waits: true
destroyed at once: true
finally ran: true, lock() returned: false
descriptors left open: 0
the next call: locked, unlock: true
in a Fiber again: locked, unlock: true
