--TEST--
Swoole: 20 coroutines of one worker, one RedLock object, 10 increments each of a counter under one lock (read, yield, write): never two inside at once, all 200 increments done, no lock() failure (f334b16: 6 inside at once, 1 of 200 done, 45 failures); the same through run()
--EXTENSIONS--
redlock
--SKIPIF--
<?php require __DIR__ . '/coroutines.inc'; co_skip_without_swoole(); ?>
--FILE--
<?php
require __DIR__ . '/coroutines.inc';
use Swoole\Coroutine;

function contend(RedLock $r, string $key, bool $viaRun): array
{
    $counter = 0;
    $inside = 0;
    $most = 0;
    $failures = 0;
    $deadline = microtime(true) + 60;
    co_run(function () use ($r, $key, $viaRun, &$counter, &$inside, &$most, &$failures, $deadline) {
        for ($c = 0; $c < 20; $c++) {
            Coroutine::create(function () use ($r, $key, $viaRun, &$counter, &$inside, &$most, &$failures, $deadline) {
                $work = function () use (&$counter, &$inside, &$most) {
                    $inside++;
                    $most = max($most, $inside);
                    $seen = $counter;
                    Coroutine::sleep(0.002);      // another coroutine runs here
                    $counter = $seen + 1;
                    $inside--;
                };
                for ($i = 0; $i < 10 && microtime(true) < $deadline; $i++) {
                    if ($viaRun) {
                        $r->run($key, 3000, fn () => $work()) ?? null;
                        continue;
                    }
                    $lock = $r->lock($key, 3000);
                    if ($lock === false) {
                        $failures++;
                        continue;
                    }
                    $work();
                    $r->unlock($lock);
                }
            });
        }
    });
    return [$counter, $most, $failures];
}

$key = rt_key();
$r = new RedLock(rt_servers(3), 200, 3, ['waitTimeout' => 30000]);
[$counter, $most, $failures] = contend($r, $key, false);
echo "lock(): $counter increments, at most $most inside, $failures failures\n";
try {
    [$counter, $most] = contend($r, $key, true);
    echo "run(): $counter increments, at most $most inside\n";
} catch (Throwable $e) {
    echo get_class($e), ': ', $e->getMessage(), "\n";
}
?>
--EXPECT--
lock(): 200 increments, at most 1 inside, 0 failures
run(): 200 increments, at most 1 inside
