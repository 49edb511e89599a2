--TEST--
Swoole: a lock lost while the coroutine that took it sleeps and another coroutine runs (busy, never yielding): onLoss runs in the coroutine that took the lock (its cid), when that coroutine runs again, never in the running one; abortOnLoss throws into the sleeping coroutine's run() as it wakes (its next statement does not run), and the running coroutine's run() finishes; a lock kept past its coroutine's end is still told
--EXTENSIONS--
redlock
--SKIPIF--
<?php require __DIR__ . '/coroutines.inc'; co_skip_without_swoole(); ?>
--FILE--
<?php
require __DIR__ . '/coroutines.inc';
use Swoole\Coroutine;

/** Times stretched under a memory checker, where each call takes 10-50x longer. */
$s = co_checked() ? 5.0 : 1.0;

/** Until A holds its lock: B's spin must not starve A's own call. */
function await_holder(bool &$held): void
{
    for ($i = 0; !$held && $i < 1000; $i++) {
        Coroutine::sleep(0.01);
    }
}

/** Busy for $seconds without yielding: whatever the interrupt does, it does here. */
function spin(float $seconds): int
{
    $spins = 0;
    $end = microtime(true) + $seconds * $GLOBALS['s'];
    while (microtime(true) < $end) {
        $spins++;
    }
    return $spins;
}

// onLoss: A takes a lock (renewed every 100 ms) and sleeps; B deletes it and spins through the
// renewal that finds it gone.
$events = [];
$cids = [];
$watched = new RedLock(rt_servers(3, 0.5 * $s), 50, 1, ['autoExtend' => true,
    'onLoss' => function (array $lock, string $reason) use (&$events) {
        $events[] = 'onLoss in ' . Coroutine::getCid() . " ($reason)";
    }]);
$key = rt_key('taken-by-a');
$held = false;
co_run(function () use ($watched, $key, &$events, &$cids, &$held) {
    Coroutine::create(function () use ($watched, $key, &$events, &$cids, &$held) {
        $cids['A'] = Coroutine::getCid();
        $events[] = $watched->lock($key, (int) (300 * $GLOBALS['s'])) ? 'A locked' : 'A failed: ' . json_encode($watched->getLastErrors());
        $held = true;
        Coroutine::sleep(0.8 * $GLOBALS['s']);
        $events[] = 'A woke';
    });
    Coroutine::create(function () use ($key, &$events, &$cids, &$held) {
        $cids['B'] = Coroutine::getCid();
        await_holder($held);
        rt_take($key);
        spin(0.6);
        $events[] = 'B done';
    });
});
echo strtr(implode("\n", $events), [" {$cids['A']} " => ' A ', " {$cids['B']} " => ' B ']), "\n--\n";

// abortOnLoss: the same, A and B each inside run() of one object.
$events = [];
$r = new RedLock(rt_servers(3, 0.5 * $s), 50, 1, ['autoExtend' => true, 'abortOnLoss' => true]);
$doomed = rt_key('doomed');
$safe = rt_key('safe');
$held = false;
co_run(function () use ($r, $doomed, $safe, &$events, &$held) {
    Coroutine::create(function () use ($r, $doomed, &$events, &$held) {
        try {
            $events[] = $r->run($doomed, (int) (300 * $GLOBALS['s']), function () use (&$events, &$held) {
                $held = true;
                Coroutine::sleep(0.8 * $GLOBALS['s']);
                $events[] = 'A: the statement after its sleep ran';
                return 'A: run() returned';
            });
        } catch (RedLockException $e) {
            $events[] = 'A: run() threw';
        }
    });
    Coroutine::create(function () use ($r, $doomed, $safe, &$events, &$held) {
        await_holder($held);
        try {
            $events[] = $r->run($safe, (int) (3000 * $GLOBALS['s']), /* outlives its spin, renewed or not */ function () use ($doomed) {
                rt_take($doomed);
                spin(0.6);
                return 'B: run() returned';
            });
        } catch (Throwable $e) {
            $events[] = 'B: run() threw ' . $e->getMessage();
        }
    });
});
echo implode("\n", $events), "\n--\n";

// A lock that outlives the coroutine that took it: its loss is still told, where the worker goes on.
$events = [];
$orphan = rt_key('orphan');
$held = false;
co_run(function () use ($watched, $orphan, &$events, &$held) {
    Coroutine::create(function () use ($watched, $orphan, &$events, &$held) {
        $events[] = $watched->lock($orphan, (int) (300 * $GLOBALS['s'])) ? 'A locked and ended' : 'A failed: ' . json_encode($watched->getLastErrors());
        $held = true;
    });
    Coroutine::create(function () use ($orphan, &$events, &$held) {
        await_holder($held);
        rt_take($orphan);
        spin(0.4);
        $events[] = 'B done';
    });
});
echo preg_replace('/onLoss in \d+/', 'onLoss', implode("\n", $events)), "\n";
?>
--EXPECT--
A locked
B done
onLoss in A (renewal_failed)
A woke
--
B: run() returned
A: run() threw
--
A locked and ended
onLoss (renewal_failed)
B done
