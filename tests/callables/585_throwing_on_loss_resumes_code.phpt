--TEST--
Callables: an onLoss callable that throws, told at the VM interrupt while plain code runs, leaves that code exactly where it was: the exception is swallowed and counted, and the interrupted function goes on to its end (before: the exception handler's opline stayed in the interrupted frame, and the function silently returned null from the middle of its loop)
--EXTENSIONS--
redlock
--SKIPIF--
<?php if (PHP_OS_FAMILY === 'Windows') die('skip memory:// needs unix sockets'); ?>
--FILE--
<?php
$servers = ['memory://a', 'memory://b', 'memory://c'];
$told = 0;
$before = RedLock::metrics()['on_loss_errors'];
$r = new RedLock($servers, 10, 3, ['autoExtend' => true, 'onLoss' => function () use (&$told) {
    $told++;
    throw new LogicException('from onLoss');
}]);
function work(int &$told): string
{
    $steps = 0;
    for ($until = microtime(true) + 3; !$told && microtime(true) < $until;) {
        usleep(1000);
        $steps++;
    }
    return $steps > 0 ? 'the function went on to its end' : 'no loop';
}
$r->lock('l', 300);
(new RedLock($servers))->forceUnlock('l');
var_dump(work($told));
echo 'told ', $told, ', on_loss_errors +', RedLock::metrics()['on_loss_errors'] - $before, "\n";
?>
--EXPECT--
string(31) "the function went on to its end"
told 1, on_loss_errors +1
