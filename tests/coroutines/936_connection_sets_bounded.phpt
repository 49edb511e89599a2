--TEST--
Swoole: 200 overlapping calls on one object open at most maxConnectionSets connection sets (default 32), the rest wait for a free one and all succeed; waitTimeout waiters hold no set while asleep, their subscriptions count against the bound, and the holder's unlock() on the same object still gets through; spare sets idle for 2 s are closed
--EXTENSIONS--
redlock
--SKIPIF--
<?php require __DIR__ . '/coroutines.inc'; co_skip_without_swoole(); ?>
--FILE--
<?php
/* On 5105392 every overlapping call opened a set of its own and kept it for good: 200 calls left
 * 600 descriptors open (3 servers), and 50 waiters held 6 each while they slept. 'persistent' =>
 * false: a closed set's connections are closed, not handed to the process's pool (at most 64 idle). */
require __DIR__ . '/coroutines.inc';
use Swoole\Coroutine;

function fds(): int
{
    return count(scandir('/proc/self/fd')) - 2;
}

$servers = rt_servers(3, 1.0 * rt_time_scale()); // under valgrind 200 calls through 32 sets take their time
$swoole = 0;
co_run(function () use (&$swoole) { $swoole = fds(); }); // Swoole's own descriptors while coroutines run
$base = fds();
$swoole -= $base;
$burst = function (RedLock $r, int $n): array {
    $won = 0;
    $peak = 0;
    co_run(function () use ($r, $n, &$won, &$peak) {
        $left = $n;
        for ($i = 0; $i < $n; $i++) {
            Coroutine::create(function () use ($r, $i, &$won, &$left) {
                $lock = $r->lock(rt_key("burst$i"), 10000);
                if ($lock !== false) {
                    $won++;
                    $r->unlock($lock);
                }
                $left--;
            });
        }
        for ($t = 0; $t < 2000 && $left > 0; $t++) { // sample while the burst runs
            $peak = max($peak, fds() - $GLOBALS['swoole']);
            Coroutine::sleep(0.002);
        }
    });
    return [$won, $peak];
};

echo "default bound\n";
$r = new RedLock($servers, 200, 3, ['persistent' => false]);
[$won, $peak] = $burst($r, 200);
$open = fds() - $base;
echo "$won of 200 won; sets left open within 32: ", var_export($open <= 32 * 3, true),
    "; peak within 32 sets: ", var_export($peak - $base <= 32 * 3, true), "\n";
if ($open > 32 * 3 || $peak - $base > 32 * 3) {
    echo "  open after the burst: $open, at the peak: ", $peak - $base, "\n";
}

echo "maxConnectionSets 4\n";
$r4 = new RedLock($servers, 200, 3, ['maxConnectionSets' => 4, 'persistent' => false]);
$base4 = fds();
[$won, $peak] = $burst($r4, 100);
echo "$won of 100 won; within 4 sets: ", var_export(fds() - $base4 <= 4 * 3 && $peak - $base4 <= 4 * 3, true), "\n";

echo "idle spares closed\n";
$ri = new RedLock(rt_servers(3), 200, 3, ['persistent' => false]); // timeout 0.5 s: the idle period is 2 s
$basei = fds();
[$won] = $burst($ri, 20);
$before = fds() - $basei;
co_run(function () use ($ri) {
    Coroutine::sleep(2.3);
    $lock = $ri->lock(rt_key('after'), 1000); // the next call closes the idle spares
    $ri->unlock($lock);
});
echo "$won of 20 won; spares open after the burst: ", var_export($before > 3, true), "; only the object's own set left: ",
    var_export(fds() - $basei <= 3, true), "\n";

echo "waiters\n";
$w = new RedLock($servers, 100, 3, ['waitTimeout' => 3000, 'maxConnectionSets' => 8, 'persistent' => false]);
$basew = fds();
$key = rt_key('waited');
$got = 0;
$during = 0;
$released = null;
co_run(function () use ($w, $key, &$got, &$during, &$released) {
    $held = $w->lock($key, 10000);
    for ($i = 0; $i < 50; $i++) {
        Coroutine::create(function () use ($w, $key, &$got) {
            $lock = $w->lock($key, 10000);
            if ($lock !== false) {
                $got++;
                $w->unlock($lock);
            }
        });
    }
    Coroutine::sleep(0.5);
    $during = fds() - $GLOBALS['swoole'];
    $released = $w->unlock($held); // needs a set while 50 waiters wait
});
echo "holder's unlock(): ", var_export($released, true), "; all 50 waiters won in turn: ", var_export($got === 50, true),
    "; while waiting within 8 sets: ", var_export($during - $basew <= 8 * 3, true), "\n";
if ($during - $basew > 8 * 3) {
    echo "  open while waiting: ", $during - $basew, "\n";
}
?>
--EXPECT--
default bound
200 of 200 won; sets left open within 32: true; peak within 32 sets: true
maxConnectionSets 4
100 of 100 won; within 4 sets: true
idle spares closed
20 of 20 won; spares open after the burst: true; only the object's own set left: true
waiters
holder's unlock(): true; all 50 waiters won in turn: true; while waiting within 8 sets: true
