--TEST--
Swoole: 20 coroutines wait (waitTimeout 5000) on 20 locks through one RedLock object; the 20 locks are released at once and every waiter wakes at its release (within 150 ms), each with its own lock
--EXTENSIONS--
redlock
--SKIPIF--
<?php require __DIR__ . '/coroutines.inc'; co_skip_without_swoole(); ?>
--FILE--
<?php
require __DIR__ . '/coroutines.inc';
use Swoole\Coroutine;
$holder = new RedLock(rt_servers(3));
$r = new RedLock(rt_servers(3), 200, 3, ['waitTimeout' => 5000]);
$keys = array_map(fn ($i) => rt_key("k$i"), range(0, 19));
$held = array_map(fn ($k) => $holder->lock($k, 10000), $keys);
echo count(array_filter($held)), " held\n";
$woke = [];
$released = null;
co_run(function () use ($r, $holder, $keys, $held, &$woke, &$released) {
    foreach ($keys as $i => $key) {
        Coroutine::create(function () use ($r, $key, $i, &$woke) {
            $lock = $r->lock($key, 5000);
            $woke[$i] = [microtime(true), $lock !== false && $lock['resource'] === $key];
            if ($lock) {
                $r->unlock($lock);
            }
        });
    }
    Coroutine::create(function () use ($holder, $held, &$released) {
        Coroutine::sleep(0.5);                    // every waiter is subscribed by now
        $released = microtime(true);
        foreach ($held as $lock) {
            $holder->unlock($lock);
        }
    });
});
$late = 0;
$own = 0;
foreach ($woke as $i => [$at, $ok]) {
    $own += $ok;
    $late += ($at - $released) * 1000 > (co_checked() ? 1500 : 150 * rt_load_scale()); // a busier machine than its cores wakes later
}
echo count($woke), " woke, $own with their own lock, $late late\n";
?>
--EXPECT--
20 held
20 woke, 20 with their own lock, 0 late
