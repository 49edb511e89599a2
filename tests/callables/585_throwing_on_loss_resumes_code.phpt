--TEST--
Callables: an onLoss callable that throws, told at the VM interrupt while plain code runs, leaves that code exactly where it was: the exception is swallowed and counted, and the interrupted function goes on to its end (before: the exception handler's opline stayed in the interrupted frame, and the function silently returned null from the middle of its loop)
--EXTENSIONS--
redlock
--SKIPIF--
<?php if (PHP_OS_FAMILY === 'Windows') die('skip memory:// needs unix sockets'); ?>
--FILE--
<?php
require __DIR__ . '/../inc/redlock_test.inc';
$servers = ['memory://a', 'memory://b', 'memory://c'];
$told = 0;
$before = RedLock::metrics()['on_loss_errors'];
$r = new RedLock($servers, 10, 3, ['autoExtend' => true, 'onLoss' => function () use (&$told) {
    $told++;
    throw new LogicException('from onLoss');
}]);
/* The lock is lost inside the loop (its first step), so the loss is told while the loop runs however slow
 * the machine: before, a renewal round under valgrind could tell it before the loop began. */
function work(int &$told, callable $lose): string
{
    $steps = 0;
    $bound = min(30.0, 3.0 * rt_time_scale() * rt_load_scale()); // the renewal thread's rounds are our CPU work
    for ($until = microtime(true) + $bound; !$told && microtime(true) < $until;) {
        if ($steps === 0) {
            $lose();
        }
        usleep(1000);
        $steps++;
    }
    return $steps > 0 ? 'the function went on to its end' : 'no loop';
}
$r->lock('l', (int) (300 * rt_time_scale())); // under valgrind a 300 ms lease can run out before its first renewal
var_dump(work($told, fn () => (new RedLock($servers))->forceUnlock('l')));
echo 'told ', $told, ', on_loss_errors +', RedLock::metrics()['on_loss_errors'] - $before, "\n";
?>
--EXPECT--
string(31) "the function went on to its end"
told 1, on_loss_errors +1
