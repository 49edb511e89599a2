--TEST--
Revolt: while one Fiber waits inside lock() (waitTimeout), a second constructor call from another Fiber is an Error; the waiting call wins on the servers it started on, once the holder releases
--EXTENSIONS--
redlock
--SKIPIF--
<?php require __DIR__ . '/../inc/revolt.inc'; if ($why = rt_revolt_skip_reason()) die("skip $why"); ?>
--FILE--
<?php
require __DIR__ . '/../inc/revolt.inc';
rt_revolt_load();
use Revolt\EventLoop;
$servers = rt_servers(5, 2.0);
$key = rt_key();
$holder = new RedLock(array_slice($servers, 0, 3), 0, 1);
$held = $holder->lock($key, 10000);
$r = new RedLock(array_slice($servers, 0, 3), 50, 1, ['waitTimeout' => (int) (5000 * rt_revolt_time_scale())]);
$out = [];
rt_async(function () use ($r, $key, &$out) {
    $lock = $r->lock($key, 10000);
    $out[] = 'waiter: ' . (is_array($lock) && rt_values_are($key, array_fill(0, 3, $lock['token']), 3)
        ? 'won on its 3 servers' : 'failed') . (is_array($lock) && $r->unlock($lock) ? ', released' : '');
});
EventLoop::delay(0.1, function () use ($r, $holder, $held, $servers, &$out) { rt_async(function () use ($r, $holder, $held, $servers, &$out) {
    $out[] = 'constructor: ' . rt_throws(fn () => $r->__construct(array_slice($servers, 3, 2)));
    $holder->unlock($held);
}); });
EventLoop::run();
echo implode("\n", $out), "\n";
var_dump(count($r->getLastErrors()), rt_values_are($key, array_fill(0, 5, null)));
?>
--EXPECT--
constructor: Error: Cannot call constructor twice
waiter: won on its 3 servers, released
int(3)
bool(true)
