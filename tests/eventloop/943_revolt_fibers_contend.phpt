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
$deadline = microtime(true) + 8 * rt_revolt_time_scale() * rt_load_scale(); // hang guard: the code before this change takes longer
$sleep = function (float $seconds): void {
    $s = EventLoop::getSuspension();
    EventLoop::delay($seconds, fn () => $s->resume());
    $s->suspend();
};
/* Each wait may last as long as the hang guard (8 s, not 3), and both scale with the machine's load per core
 * (rt_load_scale(): 1 on a machine no busier than its cores). The 60 hand-overs, every waiter retrying each
 * 25-50 ms, are CPU work that a loaded core stretches more than in proportion: at a load of 18-24 with the test
 * on one busy core, 1 run in 15 ended a wait at 3 s ('taken' on the servers: a wait that ran out, not an error),
 * and with 3 s x the load 1 in 11 still did (a run took 22 s). What this checks is unchanged: one Fiber inside
 * at once, no increment lost, and no lock() that fails (an error, or a wait never served within the guard). */
for ($f = 0; $f < 20; $f++) {
    // One object per Fiber (947 shares one between Fibers).
    $r = new RedLock(rt_servers(3), 50, 1, ['waitTimeout' => (int) (8000 * rt_revolt_time_scale() * rt_load_scale()), 'persistent' => false]);
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
