--TEST--
Swoole: autoExtend keeps a lock (ttl 500) through Coroutine::sleep(1.6) while a rival coroutine fails to take it; abortOnLoss throws into the coroutine whose run() lost its lock, never into the other one running meanwhile; onLoss is told of that lock only
--EXTENSIONS--
redlock
--SKIPIF--
<?php require __DIR__ . '/coroutines.inc'; co_skip_without_swoole(); ?>
--FILE--
<?php
require __DIR__ . '/coroutines.inc';
use Swoole\Coroutine;
$key = rt_key('renewed');
$lost = [];
$r = new RedLock(rt_servers(3), 50, 2, ['autoExtend' => true, 'abortOnLoss' => true,
    'onLoss' => function (array $lock, string $reason) use (&$lost) { $lost[] = $lock['resource']; }]);
$rival = new RedLock(rt_servers(3), 50, 1);
$out = [];
co_run(function () use ($r, $rival, $key, &$out) {
    Coroutine::create(function () use ($r, $key, &$out) {
        $out['renewed'] = $r->run($key, 500, function (array $lock, RedLock $r) {
            Coroutine::sleep(1.6);
            return $r->validity($lock) > 0 ? 'still held' : 'lost';
        });
    });
    Coroutine::create(function () use ($rival, $key, &$out) {
        $won = 0;
        for ($i = 0; $i < 10; $i++) {
            Coroutine::sleep(0.13);
            $won += $rival->lock($key, 1000) !== false;
        }
        $out['rival'] = "rival won $won times";
    });
});
echo $out['renewed'], "\n", $out['rival'], "\n";

$doomed = rt_key('doomed');
$safe = rt_key('safe');
$out = [];
co_run(function () use ($r, $doomed, $safe, &$out) {
    Coroutine::create(function () use ($r, $doomed, &$out) {
        try {
            $r->run($doomed, 500, function () {
                for ($i = 0; $i < 100; $i++) {     // sleeps in slices: the throw comes at a boundary
                    Coroutine::sleep(0.02);
                }
            });
            $out['doomed'] = 'no exception';
        } catch (RedLockException $e) {
            $out['doomed'] = 'doomed run() threw';
        }
    });
    Coroutine::create(function () use ($r, $safe, &$out) {
        try {
            $out['safe'] = $r->run($safe, 500, function () {
                $spins = 0;
                $end = microtime(true) + 1.2;
                while (microtime(true) < $end) {     // busy between short sleeps
                    $spins++;
                    if ($spins % 1000 === 0) {
                        Coroutine::sleep(0.001);
                    }
                }
                return 'safe run() finished';
            });
        } catch (Throwable $e) {
            $out['safe'] = 'safe run() got ' . $e->getMessage();
        }
    });
    Coroutine::create(function () use ($doomed) {
        Coroutine::sleep(0.3);
        rt_take($doomed);                          // the doomed lock is taken: the next renewal finds it
    });
});
ksort($out);
echo implode("\n", $out), "\n";
echo implode(',', array_map(fn ($k) => $k === $doomed ? 'doomed' : 'other', $lost)), "\n";
?>
--EXPECT--
still held
rival won 0 times
doomed run() threw
safe run() finished
doomed
