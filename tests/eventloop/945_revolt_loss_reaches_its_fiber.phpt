--TEST--
Revolt: a lock lost while its Fiber sleeps inside run() (autoExtend, abortOnLoss, onLoss): onLoss is called once with that lock, and abortOnLoss throws inside that Fiber's $fn within the renewal's time, while another Fiber waits (waitTimeout) and a third sleeps: neither sees an exception
--EXTENSIONS--
redlock
--SKIPIF--
<?php require __DIR__ . '/../inc/revolt.inc'; if ($why = rt_revolt_skip_reason()) die("skip $why"); ?>
--FILE--
<?php
require __DIR__ . '/../inc/revolt.inc';
rt_revolt_load();
use Revolt\EventLoop;

$sleep = function (float $seconds): void {
    $s = EventLoop::getSuspension();
    EventLoop::delay($seconds, fn () => $s->resume());
    $s->suspend();
};
$keyA = rt_key('a');
$keyB = rt_key('b');
$losses = [];
$result = [];
$a = new RedLock(rt_servers(3, 1.0), 200, 1, ['autoExtend' => true, 'abortOnLoss' => true,
    'onLoss' => function (array $lock, string $reason) use (&$losses) { $losses[] = [$lock['token'], $reason]; }]);
$t0 = hrtime(true);

$fiberA = rt_async(function () use ($a, $keyA, $sleep, &$result, $t0) {
    try {
        $a->run($keyA, 600, function (array $lock) use ($keyA, $sleep, &$result) {
            $result['token A'] = $lock['token'];
            rt_take($keyA); // the next renewal (ttl/3) finds it taken
            for ($i = 0; $i < 60; $i++) {
                $sleep(0.05); // abortOnLoss throws here, in this Fiber
            }
            return 'not interrupted';
        });
        $result['A'] = 'run() returned';
    } catch (RedLockException $e) {
        $result['A'] = 'RedLockException in A: ' . (str_contains($e->getMessage(), 'abortOnLoss') ? 'abortOnLoss' : $e->getMessage());
        $result['A ms'] = (hrtime(true) - $t0) / 1e6;
    }
});
$holder = new RedLock(rt_servers(3), 0, 1);
$heldB = $holder->lock($keyB, 10000);
/* B's wait and the bound on A's abort scale together with the load per core (rt_load_scale(), 1 on a machine no
 * busier than its cores: the test as it was): an abort that waits for B's wait to end still breaks the bound. */
$scale = rt_load_scale();
$b = new RedLock(rt_servers(3), 200, 1, ['waitTimeout' => (int) (1500 * $scale)]);
rt_async(function () use ($b, $keyB, &$result) {
    try {
        $result['B'] = 'B: lock() ' . var_export($b->lock($keyB, 5000), true);
    } catch (Throwable $e) {
        $result['B'] = 'B caught ' . get_class($e);
    }
});
rt_async(function () use ($sleep, &$result) {
    try {
        for ($i = 0; $i < 30; $i++) {
            $sleep(0.05);
        }
        $result['C'] = 'C: slept to its end';
    } catch (Throwable $e) {
        $result['C'] = 'C caught ' . get_class($e);
    }
});
EventLoop::run();
$holder->unlock($heldB);

echo $result['A'], "\n";
echo 'within the renewal\'s time, not after B\'s wait: ', var_export($result['A ms'] < 1200 * $scale * rt_revolt_time_scale(), true), "\n";
echo 'onLoss: ', count($losses), ' call, A\'s lock: ', var_export(($losses[0][0] ?? null) === $result['token A'], true),
    ', ', $losses[0][1] ?? '-', "\n";
echo $result['B'], "\n";
echo $result['C'], "\n";
?>
--EXPECT--
RedLockException in A: abortOnLoss
within the renewal's time, not after B's wait: true
onLoss: 1 call, A's lock: true, renewal_failed
B: lock() false
C: slept to its end
