--TEST--
autoExtend: the servers are killed while a lock is renewed: validity() false, run() throws after $fn; a paused majority (SIGSTOP) too; no thread is left
--EXTENSIONS--
redlock
--FILE--
<?php
require __DIR__ . '/../inc/watch.inc';
$key = rt_key();
foreach (['KILL', 'STOP'] as $signal) {
    [$servers, $spawned] = wt_private_servers(3);
    $r = new RedLock($servers, 10, 0, ['autoExtend' => true, 'persistent' => false]);
    $threads = wt_threads();
    echo $signal, ': ';
    echo rt_throws(function () use ($r, $key, $spawned, $signal) {
        $r->run($key, 400, function (array $lock, RedLock $r) use ($spawned, $signal) {
            rt_signal($spawned[0], $signal);
            rt_signal($spawned[1], $signal);
            usleep(800000); // twice the ttl: no renewal can have reached a majority since
            var_dump($r->validity($lock));
        });
    }), "\n";
    echo 'renewal threads after: ', wt_threads_settled($threads) - $threads, "\n";
    unset($r);
    foreach ($spawned as $s) {
        rt_stop_server($s);
    }
}
?>
--EXPECTF--
KILL: bool(false)
RedLockException: The lock on "%s" was lost during the work: a renewal did not reach a quorum, or maxExtensions was reached
renewal threads after: 0
STOP: bool(false)
RedLockException: The lock on "%s" was lost during the work: a renewal did not reach a quorum, or maxExtensions was reached
renewal threads after: 0
