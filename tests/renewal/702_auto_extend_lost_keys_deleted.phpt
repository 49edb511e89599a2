--TEST--
autoExtend: keys deleted by hand while renewing: the next renewal finds them gone, validity() says false at once (no round trip), run() lets $fn finish, then throws RedLockException and returns nothing
--EXTENSIONS--
redlock
--FILE--
<?php
require __DIR__ . '/../inc/watch.inc';
[$servers, $spawned] = wt_private_servers(3);
$ports = array_column($spawned, 'port');
$key = rt_key();
// onLoss says who found the loss: 'renewal_failed' (the renewal, as this test claims), not 'expired'.
$told = [];
$r = new RedLock($servers, 10, 0, ['autoExtend' => true,
    'onLoss' => function (array $lock, string $reason) use (&$told) { $told[] = $reason; }]);
$ttl = (int) (300 * rt_time_scale()); // the renewal thread must get its turn within ttl/3 under valgrind too
$threads = wt_threads();
$result = 'unset';
echo rt_throws(function () use ($r, $key, $ports, $ttl, &$result) {
    $result = $r->run($key, $ttl, function (array $lock, RedLock $r) use ($key, $ports, $ttl) {
        foreach ($ports as $p) {
            rt_redis($p, 'DEL', $key);
        }
        // Twice the ttl: the renewal due after ttl/3 has found the keys gone.
        usleep(2 * $ttl * 1000);
        $asked = array_sum(array_map(fn ($p) => wt_calls($p, 'evalsha') + wt_calls($p, 'eval'), $ports));
        var_dump($r->validity($lock), $r->validity($lock));
        $after = array_sum(array_map(fn ($p) => wt_calls($p, 'evalsha') + wt_calls($p, 'eval'), $ports));
        echo 'scripts sent by validity() once lost: ', $after - $asked, "\n";
        echo "fn finished\n";
        return 'work result';
    });
}), "\n";
var_dump($result);
echo 'onLoss told: ', implode(', ', $told), "\n";
echo 'renewal threads after: ', wt_threads_settled($threads) - $threads, "\n";
// The object still works afterwards.
$lock = $r->lock($key, 1000);
var_dump(is_array($lock) && $r->validity($lock) > 0 && $r->unlock($lock));
?>
--EXPECTF--
bool(false)
bool(false)
scripts sent by validity() once lost: 0
fn finished
RedLockException: The lock on "%s" was lost during the work: a renewal did not reach a quorum, or maxExtensions was reached
string(5) "unset"
onLoss told: renewal_failed
renewal threads after: 0
bool(true)
