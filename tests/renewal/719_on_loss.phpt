--TEST--
onLoss: the callable runs on the PHP thread, once per lost lock, with the lock array handed out and the reason: 'renewal_failed' (autoExtend found the keys gone or taken: told while plain code runs, before anything else notices), 'capped' (renewals used maxExtensions up), 'expired' (no renewal: found by validity()), 'not_held' (extend() found the keys gone: the lease is lost from then on); never for a lock unlocked, nor for run()'s lock released by unlock() inside $fn; in run() with abortOnLoss it runs before the exception, and at run()'s end at the latest; its exceptions are swallowed and counted (on_loss_errors); in a Fiber it runs wherever the PHP thread is, while abortOnLoss's exception waits for run()'s own fiber; shared, semaphore and multi-resource locks alike; a callable that unlocks or drops the object; TypeError for a non-callable
--EXTENSIONS--
redlock
--FILE--
<?php
require __DIR__ . '/../inc/watch.inc';
$servers = rt_servers(3, 1.0);
$seen = [];
$onLoss = function (array $lock, string $reason) use (&$seen) {
    $seen[] = ['resource' => $lock['resource'], 'reason' => $reason, 'token' => $lock['token'],
        'fiber' => Fiber::getCurrent() !== null];
};
$wait = function (float $seconds) use (&$seen) { // plain PHP code running until something is seen
    $until = microtime(true) + $seconds;
    while (!$seen && microtime(true) < $until) {
        usleep(1000);
    }
};

echo "-- renewal failed\n";
$r = new RedLock($servers, 10, 3, ['autoExtend' => true, 'onLoss' => $onLoss]);
// taken before the lease runs out: under valgrind on a loaded machine lock() and rt_take() took longer than 300 ms
$scale = rt_load_scale() * (rt_time_scale() > 1 ? 3 : 1);
$lock = $r->lock($k = rt_key('a'), (int) (300 * $scale));
rt_take($k);
$wait(3.0 * $scale);
echo count($seen), ' ', $seen[0]['reason'], ' same token: ', var_export($seen[0]['token'] === $lock['token'], true), "\n";
var_dump($r->validity($lock), $r->unlock($lock));
echo 'told once: ', count($seen), "\n";

echo "-- capped\n";
$seen = [];
$r = new RedLock($servers, 10, 3, ['autoExtend' => true, 'maxExtensions' => 1, 'onLoss' => $onLoss]);
$lock = $r->lockSemaphore(rt_key('sem'), 2, 200);
$wait(3.0);
echo $seen[0]['reason'], ' ', $seen[0]['resource'] === $lock['resource'] ? 'semaphore array' : 'other', "\n";

echo "-- expired, found by validity()\n";
$seen = [];
$r = new RedLock($servers, 10, 3, ['onLoss' => $onLoss]);
$lock = $r->lockShared(rt_key('shared'), 100);
usleep(300000);
echo 'nothing told before a call looks: ', count($seen), "\n";
var_dump($r->validity($lock));
echo $seen[0]['reason'], ' ', isset($lock['shared']) ? 'shared array' : 'other', "\n";

echo "-- not_held, found by extend()\n";
$seen = [];
$lock = $r->lock([rt_key('m1'), rt_key('m2')], 10000);
(new RedLock($servers))->forceUnlock([rt_key('m1'), rt_key('m2')]);
var_dump($r->extend($lock, 10000));
echo $seen[0]['reason'], ' ', is_array($seen[0]['resource']) ? 'multi array' : 'other', "\n";
var_dump($r->extend($lock, 10000), count($seen));

echo "-- unlocked: never\n";
$seen = [];
$r = new RedLock($servers, 10, 3, ['autoExtend' => true, 'onLoss' => $onLoss]);
$lock = $r->lock($k = rt_key('u'), 300);
$r->unlock($lock);
rt_del($k);
$r->run(rt_key('run-unlock'), 300, function ($lock, $r) { $r->unlock($lock); usleep(400000); });
$wait(0.5);
echo count($seen), "\n";

echo "-- run() with abortOnLoss: the callable first, its exception swallowed\n";
$seen = [];
$before = RedLock::metrics()['on_loss_errors'];
$r = new RedLock($servers, 10, 3, ['autoExtend' => true, 'abortOnLoss' => true,
    'onLoss' => function ($lock, $reason) use ($onLoss) { $onLoss($lock, $reason); throw new LogicException('from onLoss'); }]);
echo rt_throws(function () use ($r, &$seen) {
    return $r->run($k = rt_key('run'), 300, function () use ($k, &$seen) {
        rt_take($k);
        for ($i = 0; $i < 3000; $i++) {
            usleep(1000);
        }
        return 'not interrupted';
    });
}), "\n";
echo count($seen), ' ', $seen[0]['reason'], ' on_loss_errors +', RedLock::metrics()['on_loss_errors'] - $before, "\n";

echo "-- run() without renewal: at its end at the latest\n";
$seen = [];
$r = new RedLock($servers, 10, 3, ['onLoss' => $onLoss]);
echo rt_throws(function () use ($r, &$seen) {
    return $r->run(rt_key('run-end'), 100, function () { usleep(250000); });
}), "\n";
echo count($seen), ' ', $seen[0]['reason'], "\n";

echo "-- Fibers\n";
$seen = [];
$r = new RedLock($servers, 10, 0, ['autoExtend' => true, 'abortOnLoss' => true, 'onLoss' => $onLoss]);
$fiber = new Fiber(function () use ($r) {
    return $r->run($k = rt_key('fiber'), 600, function () use ($k) {
        rt_take($k);
        Fiber::suspend('suspended');
        for ($i = 0; $i < 3000; $i++) {
            usleep(1000);
        }
        return 'not interrupted';
    });
});
echo $fiber->start(), "\n";
$wait(3.0);
echo 'told outside the fiber: ', count($seen), ' ', $seen[0]['reason'], ' in a fiber: ', var_export($seen[0]['fiber'], true), "\n";
usleep(50000);
echo 'still running outside', "\n";
echo rt_throws(function () use ($fiber) { $fiber->resume(); return $fiber->getReturn(); }), "\n";

echo "-- a callable that unlocks, and one that drops its object\n";
$seen = [];
$holder = new RedLock($servers, 10, 3, ['autoExtend' => true, 'onLoss' => function ($lock) use (&$holder, &$seen) {
    $seen[] = $holder->unlock($lock);
    $holder = null; // the last reference: the object goes while its callable runs
}]);
$lock = $holder->lock($k = rt_key('drop'), 300);
rt_take($k);
$wait(3.0);
var_dump($seen, $holder);

echo "-- bad option\n";
echo rt_throws(fn () => new RedLock($servers, 10, 3, ['onLoss' => 'no such function'])), "\n";
echo rt_throws(fn () => new RedLock($servers, 10, 3, ['onLoss' => 42])), "\n";
?>
--EXPECTF--
-- renewal failed
1 renewal_failed same token: true
bool(false)
bool(false)
told once: 1
-- capped
capped semaphore array
-- expired, found by validity()
nothing told before a call looks: 0
bool(false)
expired shared array
-- not_held, found by extend()
bool(false)
not_held multi array
bool(false)
int(1)
-- unlocked: never
0
-- run() with abortOnLoss: the callable first, its exception swallowed
RedLockException: The lock on "%s" was lost during the work: a renewal did not reach a quorum, or maxExtensions was reached (abortOnLoss)
1 renewal_failed on_loss_errors +1
-- run() without renewal: at its end at the latest
RedLockException: The lock on "%s" was lost during the work: its validity ran out (no autoExtend)
1 expired
-- Fibers
suspended
told outside the fiber: 1 renewal_failed in a fiber: false
still running outside
RedLockException: The lock on "%s" was lost during the work: a renewal did not reach a quorum, or maxExtensions was reached (abortOnLoss)
-- a callable that unlocks, and one that drops its object
array(1) {
  [0]=>
  bool(false)
}
NULL
-- bad option
TypeError: RedLock::__construct(): Argument #4 ($options) option "onLoss" must be a valid callback or null, string given
TypeError: RedLock::__construct(): Argument #4 ($options) option "onLoss" must be a valid callback or null, int given
