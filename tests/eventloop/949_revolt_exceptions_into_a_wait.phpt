--TEST--
Revolt: an exception thrown into a Fiber waiting in lock() ($fiber->throw() from a timer) ends that lock() at once with it; the Fiber goes on and waits again normally; an uncaught exception of another callback stops EventLoop::run() while a Fiber waits, and running the loop again completes that wait; a run() whose $fn threw still suspends for its release
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
$r = new RedLock(rt_servers(3), 100, 1, ['waitTimeout' => 3000]);
$log = [];

// 1. $fiber->throw() into the wait.
$fiber = rt_async(function () use ($r, $key, &$log) {
    $t = hrtime(true);
    try {
        $r->lock($key, 5000);
        $log[] = 'not interrupted';
    } catch (LogicException $e) {
        $log[] = sprintf('lock() threw "%s" at once: %s', $e->getMessage(), var_export((hrtime(true) - $t) / 1e6 < 1000, true));
    }
    $lock = $r->lock($key, 5000); // waits again, woken by the release at 0.4 s
    $log[] = 'waited again: ' . (is_array($lock) ? 'locked' : 'not locked');
    is_array($lock) && $r->unlock($lock);
});
EventLoop::delay(0.2, function () use ($fiber) { $fiber->throw(new LogicException('stop waiting')); });
EventLoop::delay(0.4, function () use ($holder, $held) { $holder->unlock($held); });
EventLoop::run();

// 2. Another callback's uncaught exception stops the loop while a Fiber waits.
$held = $holder->lock($key, 10000);
rt_async(function () use ($r, $key, &$log) {
    $lock = $r->lock($key, 5000);
    $log[] = 'the wait across two runs of the loop: ' . (is_array($lock) ? 'locked' : 'not locked');
    is_array($lock) && $r->unlock($lock);
});
EventLoop::delay(0.1, function () { throw new RuntimeException('a callback failed'); });
try {
    EventLoop::run();
} catch (Revolt\EventLoop\UncaughtThrowable $e) {
    $log[] = 'EventLoop::run() threw: ' . $e->getPrevious()->getMessage();
}
$holder->unlock($held);
EventLoop::run();

// 3. run() whose $fn throws: the release after it suspends like any wait (a timer ticks meanwhile).
$ticks = 0;
$tick = EventLoop::repeat(0.005, function () use (&$ticks) { $ticks++; });
rt_async(function () use ($r, $key, &$log, $tick) {
    try {
        $r->run($key, 5000, function () { throw new DomainException('work failed'); });
    } catch (DomainException $e) {
        $log[] = 'run() rethrew: ' . $e->getMessage();
    }
    EventLoop::cancel($tick);
});
EventLoop::run();
$check = new RedLock(rt_servers(3), 0, 1);
$lock = $check->lock($key, 1000);
$log[] = 'released by run(): ' . var_export(is_array($lock), true);
echo implode("\n", $log), "\n";
?>
--EXPECT--
lock() threw "stop waiting" at once: true
waited again: locked
EventLoop::run() threw: a callback failed
the wait across two runs of the loop: locked
run() rethrew: work failed
released by run(): true
