--TEST--
abortOnLoss and Fibers: when run() sits in a suspended Fiber and its lock is lost, the exception is not thrown into the code that runs meanwhile (outside the fiber); it is thrown inside $fn when the fiber is resumed
--EXTENSIONS--
redlock
--FILE--
<?php
require __DIR__ . '/../inc/watch.inc';
$key = rt_key();
// rt_take() must return and the fiber suspend before the first renewal (ttl/3): under valgrind on a loaded
// machine it did not within 200 ms, and the loss was thrown inside rt_take(), still in the fiber
$scale = rt_load_scale() * (rt_time_scale() > 1 ? 3 : 1);
$ttl = (int) (600 * $scale);
$r = new RedLock(rt_servers(5, 1.0), 10, 0, ['autoExtend' => true, 'abortOnLoss' => true, 'persistent' => false]);
$fiber = new Fiber(function () use ($r, $key, $ttl) {
    return $r->run($key, $ttl, function () use ($key) {
        rt_take($key); // the next renewal (after ttl/3) finds it taken
        Fiber::suspend('suspended');
        $deadline = microtime(true) + 30; // hang guard only
        while (microtime(true) < $deadline) {
            usleep(1000);
        }
        return 'not interrupted';
    });
});
echo $fiber->start(), "\n";
// Outside the fiber: plain PHP code, past the loss (renewal at ~ttl/3, lost by ~ttl at the latest).
$steps = 0;
$until = microtime(true) + 1.5 * $scale;
while (microtime(true) < $until) {
    usleep(1000);
    $steps++;
}
echo 'outside the fiber ran to its end: ', var_export($steps > 0, true), "\n";
echo rt_throws(function () use ($fiber) { $fiber->resume(); return $fiber->getReturn(); }), "\n";
?>
--EXPECTF--
suspended
outside the fiber ran to its end: true
RedLockException: The lock on "%s" was lost during the work: a renewal did not reach a quorum, or maxExtensions was reached (abortOnLoss)
