--TEST--
Swoole: two of three servers silent (SIGSTOP, timeout 0.5 s): lock() in a coroutine waits for their timeouts while a 10 ms ticker runs (longest gap < 20 ms; f334b16: 511 ms), fails for the quorum, and the connections stay usable once the servers are back
--EXTENSIONS--
redlock
--SKIPIF--
<?php require __DIR__ . '/coroutines.inc'; co_skip_without_swoole(); ?>
--FILE--
<?php
require __DIR__ . '/coroutines.inc';
$servers = [rt_spawn_server(), rt_spawn_server(), rt_spawn_server()];
$list = array_map(fn ($s) => ['127.0.0.1', $s['port'], 0.5], $servers);
$r = new RedLock($list, 10, 1, ['persistent' => false]);
$key = rt_key();
var_dump(is_array($warm = $r->lock($key, 5000)) && $r->unlock($warm)); // connected
rt_signal($servers[1], 'STOP');
rt_signal($servers[2], 'STOP');
[$lock, $gap, $ticks] = co_with_ticker(fn () => $r->lock($key, 5000));
var_dump($lock);
echo co_gap_line($gap), "\n";
// 10 ms ticks over the 0.5 s timeouts: about 50 on a quiet machine, 0 or 1 when the wait blocks the loop; a
// busy machine stretches each tick as it does the gap bound (26 seen at load 6 beside the CI's lanes)
echo $ticks >= 30 / rt_load_scale() ? "ticked while the servers were silent\n" : "$ticks ticks\n";
$errors = $r->getLastErrors();
echo count(array_filter($errors, fn ($e) => str_contains((string) $e, 'timeout'))), " timeouts\n";
rt_signal($servers[1], 'CONT');
rt_signal($servers[2], 'CONT');
[$again] = co_with_ticker(function () use ($r, $key) {
    for ($i = 0; $i < 50; $i++) {          // the late replies drain first; bounded
        if ($l = $r->lock($key, 5000)) {
            return $r->unlock($l);
        }
        Swoole\Coroutine::sleep(0.1);
    }
    return false;
});
var_dump($again);
?>
--EXPECT--
bool(true)
bool(false)
longest gap below the bound
ticked while the servers were silent
2 timeouts
bool(true)
