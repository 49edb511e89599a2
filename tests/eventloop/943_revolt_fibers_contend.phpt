--TEST--
Revolt: 20 Fibers x 3 increments of a shared counter under one lock (waitTimeout, a 5 ms sleep inside the lock): never two Fibers inside at once, no increment lost, no lock() failed
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
$state = new ArrayObject(['counter' => 0, 'inside' => 0, 'most inside' => 0, 'failed' => 0, 'done' => 0]);
$deadline = microtime(true) + 8 * rt_revolt_time_scale(); // hang guard: the code before this change takes longer
$sleep = function (float $seconds): void {
    $s = EventLoop::getSuspension();
    EventLoop::delay($seconds, fn () => $s->resume());
    $s->suspend();
};
for ($f = 0; $f < 20; $f++) {
    // One object per Fiber (947 shares one between Fibers).
    $r = new RedLock(rt_servers(3), 50, 1, ['waitTimeout' => (int) (3000 * rt_revolt_time_scale()), 'persistent' => false]);
    rt_async(function () use ($r, $key, $state, $deadline, $sleep) {
        for ($i = 0; $i < 3 && microtime(true) < $deadline; $i++) {
            $lock = $r->lock($key, (int) (1000 * rt_revolt_time_scale()));
            if (!is_array($lock)) {
                $state['failed']++;
                continue;
            }
            $state['inside']++;
            $state['most inside'] = max($state['most inside'], $state['inside']);
            $seen = $state['counter'];
            $sleep(0.005);
            $state['counter'] = $seen + 1;
            $state['inside']--;
            $r->unlock($lock);
            $state['done']++;
        }
    });
}
EventLoop::run();
echo 'most Fibers inside at once: ', $state['most inside'], "\n";
echo 'counter: ', $state['counter'], ' of ', $state['done'], " increments done\n";
echo 'lock() failures: ', $state['failed'], "\n";
?>
--EXPECT--
most Fibers inside at once: 1
counter: 60 of 60 increments done
lock() failures: 0
