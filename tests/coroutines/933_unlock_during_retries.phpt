--TEST--
Swoole: a retrying lock() gives its connection set back for each retry pause and borrows one again for its next attempt: with maxConnectionSets 2 and 10 contenders retrying on the held resource, the holder's unlock() on the same object gets a set and releases, and a contender then wins
--EXTENSIONS--
redlock
--SKIPIF--
<?php require __DIR__ . '/coroutines.inc'; co_skip_without_swoole(); ?>
--FILE--
<?php
/* Before the fix (main after maxConnectionSets, issue 32 item 3) a contender kept its set through
 * its retryDelay pauses, and unlock() waited only the servers' timeout for one: it returned false
 * after 0.1 s and the key stayed for its ttl (no contender could win). */
require __DIR__ . '/coroutines.inc';
use Swoole\Coroutine;

$s = rt_time_scale();
$servers = rt_servers(3, 0.1 * $s);
$r = new RedLock($servers, (int) (200 * $s), 3, ['maxConnectionSets' => 2, 'persistent' => false]);
$key = rt_key('held');
$unlocked = null;
$won = [];
$tries = 0;
co_run(function () use ($r, $key, &$unlocked, &$won, &$tries) {
    $lock = $r->lock($key, 30000);
    if ($lock === false) {
        echo "the holder's lock() failed\n";
        return;
    }
    for ($i = 0; $i < 10; $i++) {
        Coroutine::create(function () use ($r, $key, &$won, &$tries) {
            $tries++;
            $mine = $r->lock($key, 30000); // contended: retries with pauses of 100-200 ms; a winner outlives the others' retries (3 x (timeout + retryDelay), scaled)
            if ($mine !== false) {
                $won[] = $mine;           // held, not released: one winner at most
            }
        });
    }
    Coroutine::sleep(0.05);               // every contender has made its first attempt
    $unlocked = $r->unlock($lock);
});
echo "contenders: $tries; unlock(): ", var_export($unlocked, true), "; contenders that won: ", count($won), "\n";
$owner = array_map(fn ($port) => rt_redis($port, 'GET', $key), array_column($servers, 1));
echo "the key is the winner's: ", var_export(count($won) === 1 && count(array_filter($owner, fn ($v) => $v === $won[0]['token'])) >= 2, true), "\n";
foreach ($won as $lock) {
    $r->unlock($lock);
}
?>
--EXPECT--
contenders: 10; unlock(): true; contenders that won: 1
the key is the winner's: true
