--TEST--
Swoole: while one coroutine waits inside lock() (waitTimeout), a second constructor call from another coroutine is an Error; the waiting call wins on the servers it started on, once the holder releases
--EXTENSIONS--
redlock
--SKIPIF--
<?php require __DIR__ . '/coroutines.inc'; co_skip_without_swoole(); ?>
--FILE--
<?php
require __DIR__ . '/coroutines.inc';
use Swoole\Coroutine;
$servers = rt_servers(5, 2.0);
$key = rt_key();
$holder = new RedLock(array_slice($servers, 0, 3), 0, 1);
$held = $holder->lock($key, 10000);
$r = new RedLock(array_slice($servers, 0, 3), 50, 1, ['waitTimeout' => (int) (5000 * rt_time_scale())]);
$out = [];
co_run(function () use ($r, $holder, $held, $key, $servers, &$out) {
    Coroutine::create(function () use ($r, $key, &$out) {
        $lock = $r->lock($key, 10000);
        $out[] = 'waiter: ' . (is_array($lock) && rt_values_are($key, array_fill(0, 3, $lock['token']), 3)
            ? 'won on its 3 servers' : 'failed') . (is_array($lock) && $r->unlock($lock) ? ', released' : '');
        $out[] = 'servers: ' . count($r->getLastErrors()) . ', gone from all 5: '
            . (rt_eventually(fn () => rt_values($key) === array_fill(0, 5, null)) ? 'yes' : 'no');
    });
    Coroutine::create(function () use ($r, $holder, $held, $servers, &$out) {
        Coroutine::sleep(0.1); // the waiter is inside lock() by now
        $out[] = 'constructor: ' . rt_throws(fn () => $r->__construct(array_slice($servers, 3, 2)));
        $holder->unlock($held);
    });
});
echo implode("\n", $out), "\n";
?>
--EXPECT--
constructor: Error: Cannot call constructor twice
waiter: won on its 3 servers, released
servers: 3, gone from all 5: yes
