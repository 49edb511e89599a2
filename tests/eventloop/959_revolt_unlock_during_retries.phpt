--TEST--
Revolt: a retrying lock() gives its connection set back for each retry pause: with maxConnectionSets 2 and 10 Fibers retrying on the held resource, the holder's unlock() on the same object gets a set and releases, and a Fiber then wins
--EXTENSIONS--
redlock
--SKIPIF--
<?php require __DIR__ . '/../inc/revolt.inc'; if ($why = rt_revolt_skip_reason()) die("skip $why"); ?>
--FILE--
<?php
/* The Revolt side of coroutines/933: before the fix a contender kept its set through its retry
 * pauses and unlock() waited only the servers' timeout for one (false, the key left for its ttl). */
require __DIR__ . '/../inc/revolt.inc';
rt_revolt_load();
use Revolt\EventLoop;

$s = rt_revolt_time_scale();
$servers = rt_servers(3, 0.1 * $s);
$r = new RedLock($servers, (int) (200 * $s), 3, ['maxConnectionSets' => 2, 'persistent' => false]);
$key = rt_key('held');
$lock = $r->lock($key, 30000);
$won = [];
$tries = 0;
$unlocked = null;
for ($i = 0; $i < 10; $i++) {
    rt_async(function () use ($r, $key, &$won, &$tries) {
        $tries++;
        $mine = $r->lock($key, 30000); // contended: retries with pauses of 100-200 ms; a winner outlives the others' retries (3 x (timeout + retryDelay), scaled)
        if ($mine !== false) {
            $won[] = $mine;           // held, not released: one winner at most
        }
    });
}
EventLoop::delay(0.05, function () use ($r, $lock, &$unlocked) { $unlocked = $r->unlock($lock); });
EventLoop::run();
echo "contenders: $tries; unlock(): ", var_export($unlocked, true), "; contenders that won: ", count($won), "\n";
$owner = array_map(fn ($port) => rt_redis($port, 'GET', $key), array_column($servers, 1));
echo "the key is the winner's: ", var_export(count($won) === 1 && count(array_filter($owner, fn ($v) => $v === $won[0]['token'])) >= 2, true), "\n";
foreach ($won as $l) {
    $r->unlock($l);
}
?>
--EXPECT--
contenders: 10; unlock(): true; contenders that won: 1
the key is the winner's: true
