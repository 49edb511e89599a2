--TEST--
Swoole: unlock() of a lock whose SET is still on its way to a slow server, while the lock's connection set is busy with another coroutine's call, goes after that SET (on the same set): the key is gone everywhere, not left for its ttl
--EXTENSIONS--
redlock
--SKIPIF--
<?php require __DIR__ . '/coroutines.inc'; co_skip_without_swoole(); ?>
--FILE--
<?php
/* Server A is behind the fault proxy; the object's first connection to it (its own set) delays
 * every request by 400 ms, later connections do not. lock() returns with B and C; another
 * coroutine's contended lock() then holds the set (its retries). On 5105392 unlock() went out on
 * a spare set, reached A before the lock's SET, and A kept the key for its whole ttl although
 * unlock() returned true. */
require __DIR__ . '/coroutines.inc';
require __DIR__ . '/../inc/faultproxy.inc';
use Swoole\Coroutine;
fp_alarm(30);
$s = fp_time_scale();
$a = fp_spawn_server();
$b = fp_spawn_server();
$c = fp_spawn_server();
$proxy = fp_start([$a['port']]);
$delay = (int) (400 * $s);
$servers = [['127.0.0.1', $proxy['listen'][$a['port']], 2.0 * $s], ['127.0.0.1', $b['port'], 2.0 * $s],
    ['127.0.0.1', $c['port'], 2.0 * $s]];
$r = new RedLock($servers, 150, 3, ['persistent' => false]);
$rival = new RedLock($servers, 10, 0, ['persistent' => false]);
$busy = rt_key('busy');
$rivalLock = $rival->lock($busy, 30000); // B and C hold it: the other call is contended
fp_set($proxy, $a['port'], 'next', "delay_c2s=$delay"); // the object's own set's connection to A
$keys = [];
$unlocked = [];
co_run(function () use ($r, $busy, $delay, &$keys, &$unlocked) {
    for ($i = 0; $i < 3; $i++) {
        $key = rt_key("late$i");
        $lock = $r->lock($key, 30000);  // B and C: a majority; A's SET still in the proxy
        if ($lock === false) {
            echo "lock $i failed\n";
            continue;
        }
        $keys[] = $key;
        $other = Coroutine::create(function () use ($r, $busy) {
            $r->lock($busy, 5000);      // takes the set the lock came on, and keeps it through its retries
        });
        $unlocked[] = $r->unlock($lock);
        Coroutine::sleep($delay * 1.5 / 1000); // A has every write by now; the next round starts in step
    }
});
usleep((int) ($delay * 2500));
$left = array_sum(array_map(fn ($k) => rf_cmd($a['port'], 'EXISTS', $k) + rf_cmd($b['port'], 'EXISTS', $k)
    + rf_cmd($c['port'], 'EXISTS', $k), $keys));
echo count($keys), " locked, unlock(): ", json_encode($unlocked), "; keys left: $left\n";
$rival->unlock($rivalLock);
?>
--EXPECT--
3 locked, unlock(): [true,true,true]; keys left: 0
