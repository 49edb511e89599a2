--TEST--
Swoole: lock() with waitTimeout 1000 on a held lock, in a coroutine, lets a 10 ms ticker coroutine run (longest gap < 20 ms; f334b16 froze the worker: 1,014 ms), and still returns false at its deadline
--EXTENSIONS--
redlock
--SKIPIF--
<?php require __DIR__ . '/coroutines.inc'; co_skip_without_swoole(); ?>
--FILE--
<?php
require __DIR__ . '/coroutines.inc';
$key = rt_key();
$holder = new RedLock(rt_servers(3));
$held = $holder->lock($key, 10000);
$r = new RedLock(rt_servers(3), 200, 3, ['waitTimeout' => 1000]);
[$result, $gap, $ticks] = co_with_ticker(function () use ($r, $key) {
    $t = microtime(true);
    $lock = $r->lock($key, 5000);
    return [$lock, (microtime(true) - $t) * 1000];
});
[$lock, $took] = $result;
var_dump($lock);
echo $took >= 990 && $took < 1500 ? "waited its waitTimeout\n" : "waited $took ms\n";
echo co_gap_line($gap), "\n";
echo $ticks >= 50 ? "ticked\n" : "$ticks ticks\n";
var_dump($holder->unlock($held));
?>
--EXPECT--
bool(false)
waited its waitTimeout
longest gap below the bound
ticked
bool(true)
