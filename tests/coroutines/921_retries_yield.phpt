--TEST--
Swoole: lock() retrying (retryDelay 200, retryCount 3) on a held lock, in a coroutine: its pauses and round trips let a 10 ms ticker run (longest gap < 20 ms; f334b16: 409 ms)
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
$r = new RedLock(rt_servers(3), 200, 3);
[$lock, $gap, $ticks] = co_with_ticker(fn () => $r->lock($key, 5000));
var_dump($lock);
echo co_gap_line($gap), "\n";
echo $ticks >= 15 ? "ticked through the retries\n" : "$ticks ticks\n";
var_dump($holder->unlock($held));
?>
--EXPECT--
bool(false)
longest gap below the bound
ticked through the retries
bool(true)
