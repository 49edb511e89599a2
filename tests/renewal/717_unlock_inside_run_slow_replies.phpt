--TEST--
autoExtend with abortOnLoss: unlock() inside $fn is a release, never a loss, even when the release's replies take 700 ms and renewals fall due meanwhile (the lease is dropped before the release is sent)
--EXTENSIONS--
redlock
pcntl
--FILE--
<?php
/* The object's own connections go through the fault proxy; once the lock is held, their replies
 * are delayed 700 ms ('open': connections opened later, the renewal thread's, stay fast). The
 * release reaches the servers at once, its replies late; renewals fall due every ttl/3 in that
 * window. Had the lock still been registered for renewal, a renewal would find our keys gone and
 * raise "lost during the work" into $fn. */
require __DIR__ . '/../inc/faultproxy.inc';
fp_alarm(20);
$s = fp_time_scale();
$servers = [fp_spawn_server(), fp_spawn_server(), fp_spawn_server()];
$ports = array_map(fn ($x) => $x['port'], $servers);
$proxy = fp_start($ports);
$r = new RedLock(array_map(fn ($p) => ['127.0.0.1', $proxy['listen'][$p], 2.0 * $s], $ports), 10, 1,
    ['autoExtend' => true, 'abortOnLoss' => true]);
$key = rt_key();
$ttl = (int) (300 * $s);
try {
    $result = $r->run($key, $ttl, function ($lock, RedLock $r) use ($proxy, $ports, $s, $key) {
        foreach ($ports as $p) {
            fp_set($proxy, $p, 'open', 'delay_s2c=' . (int) (700 * $s));
        }
        $t = microtime(true);
        $released = $r->unlock($lock);
        echo "unlock: ", var_export($released, true), ", its replies took 600 ms or more: ",
            var_export(microtime(true) - $t >= 0.6 * $s, true), "\n";
        usleep((int) (400000 * $s)); // more renewals would fall due here
        echo "keys left: ", implode(',', array_map(fn ($p) => rf_cmd($p, 'EXISTS', $key), $ports)), "\n";
        return 'finished';
    });
    echo "run: $result\n";
} catch (RedLockException $e) {
    echo "run threw: ", $e->getMessage(), "\n";
}
?>
--EXPECT--
unlock: true, its replies took 600 ms or more: true
keys left: 0,0,0
run: finished
