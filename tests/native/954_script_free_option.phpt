--TEST--
'scripts' => false on Redis 8.6 and on Valkey 9: lock() of one resource or several (MSETEX NX PX), extend() with the lock's own ttl (SET IFEQ PX), validity() from the servers (MULTI; GET; PTTL; EXEC), unlock() (DELEX / DELIFEQ), autoExtend renewals, run(), waiting and a failed attempt's rollback, without a single EVAL; extend() with another ttl is a ValueError, the kinds that need scripts a RedLockException, 'fencing' with it a ValueError naming both options; a server with neither native release votes an error, never a silent no
--EXTENSIONS--
redlock
pcntl
--INI--
redlock.persistent=0
--SKIPIF--
<?php require __DIR__ . '/native.inc'; nt_skip_without_servers(); ?>
--FILE--
<?php
require __DIR__ . '/native.inc';
foreach (['redis' => 'delex', 'valkey' => 'delifeq'] as $kind => $release) {
    $ports = nt_ports($kind);
    $servers = array_map(fn ($p) => ['127.0.0.1', $p, 1.0], $ports);
    $key = rt_key($kind);
    $r = new RedLock($servers, 10, 3, ['scripts' => false]);
    $rival = new RedLock($servers, 0, 1, ['scripts' => false]);
    $out = [];
    $stats = nt_count($ports, ['eval', 'set', $release], function () use ($r, $rival, $key, $servers, &$out) {
        $lock = $r->lock($key, 5000);
        $out['lock'] = is_array($lock) && $rival->lock($key, 5000) === false;
        $ext = $r->extend($lock, 5000);
        $out['extend'] = is_array($ext) && $ext['validity'] > 4800;
        $out['pttl'] = min(array_map(fn ($p) => rt_redis($p, 'PTTL', $key), array_column($servers, 1))) > 4000;
        $v = $r->validity($lock);
        $out['validity'] = is_float($v) && $v > 4000 && $v <= 5000;
        $out['unlock'] = $r->unlock($lock) && rt_settled(fn () => array_sum(array_map(fn ($p) => rt_redis($p, 'EXISTS', $key), array_column($servers, 1)))) === 0;
        $out['validity after'] = $r->validity($lock) === false;
        // autoExtend: renewed past three ttls. Without scripts a renewal is two round trips per lease, each
        // a third of the ttl apart: the ttl grows with the machine's load (once failed at 300 ms under load)
        $ttl = (int) (300 * rt_time_scale() * rt_load_scale());
        $a = new RedLock($servers, 10, 3, ['scripts' => false, 'autoExtend' => true]);
        $held = $a->lock("$key:auto", $ttl);
        usleep($ttl * 3300);
        $out['renewed'] = $a->validity($held) > 0 && $rival->lock("$key:auto", $ttl) === false && $a->unlock($held);
        // run()
        $out['run'] = $r->run("$key:run", 2000, fn () => $rival->lock("$key:run", 2000) === false);
        // a waiter gets it after the holder's release (no announcement without a script: its retry pause)
        $w = new RedLock($servers, 50, 3, ['scripts' => false, 'waitTimeout' => 3000]);
        $h = $r->lock("$key:wait", 10000);
        $pid = pcntl_fork();
        if ($pid === 0) {
            usleep(200000);
            (new RedLock($servers, 10, 3, ['scripts' => false]))->unlock($h);
            exit(0);
        }
        $t = microtime(true);
        $got = $w->lock("$key:wait", 1000);
        pcntl_waitpid($pid, $status);
        $out['waited'] = is_array($got) && microtime(true) - $t >= 0.15 && $w->unlock($got);
        // a failed attempt's rollback: two servers held by another, ours on the third is removed
        foreach (array_slice(array_column($servers, 1), 1) as $p) {
            rt_redis($p, 'SET', "$key:rb", 'someone-else', 'PX', 10000);
        }
        $out['rollback'] = $r->lock("$key:rb", 10000) === false;
        usleep(100000);
        $out['rolled back'] = rt_redis($servers[0][1], 'EXISTS', "$key:rb") === 0;
    });
    echo "$kind: ", json_encode($out), "\n";
    echo "$kind: EVAL ", array_sum(array_column($stats, 'eval')), ", $release > 0: ",
        var_export(array_sum(array_column($stats, $release)) > 0, true), "\n";

    $lock = $r->lock("$key:ttl", 5000);
    echo rt_throws(fn () => $r->extend($lock, 6000)), "\n";
    echo rt_throws(fn () => $r->lockShared("$key:s", 1000)), "\n";
    echo rt_throws(fn () => $r->lockSemaphore("$key:m", 2, 1000)), "\n";
    $r->unlock($lock);
    // several resources: MSETEX NX PX, then one SET IFEQ PX / DELEX or DELIFEQ per key
    $multi = nt_count($ports, ['eval', 'msetex'], function () use ($r, $rival, $key, &$mout) {
        $m = $r->lock(["$key:a", "$key:b"], 5000);
        $mout = [is_array($m), $rival->lock("$key:b", 1000) === false, is_array($r->extend($m, 5000)),
            $r->validity($m) > 4000, $r->unlock($m), is_array($got = $rival->lock("$key:a", 1000)) && $rival->unlock($got)];
    });
    echo "$kind several resources: ", json_encode($mout), ', EVAL ', array_sum(array_column($multi, 'eval')),
        ', MSETEX > 0: ', var_export(array_sum(array_column($multi, 'msetex')) > 0, true), "\n";
}
echo rt_throws(fn () => new RedLock([['127.0.0.1', nt_ports('redis')[0], 1.0]], 200, 3, ['scripts' => false, 'fencing' => true])), "\n";
echo rt_throws(fn () => new RedLock([['127.0.0.1', nt_ports('redis')[0], 1.0]], 200, 3, ['scripts' => 'no'])), "\n";

// Debian 12's Redis 7.0 has neither DELEX nor DELIFEQ: the release is an error vote, said so.
$old = rt_spawn_server([], false);
$o = new RedLock([['127.0.0.1', $old['port'], 1.0]], 10, 1, ['scripts' => false]);
$lock = $o->lock(rt_key('old'), 5000);
var_dump(is_array($lock), $o->unlock($lock), $o->getLastErrors());
rt_stop_server($old);
?>
--EXPECTF--
redis: {"lock":true,"extend":true,"pttl":true,"validity":true,"unlock":true,"validity after":true,"renewed":true,"run":true,"waited":true,"rollback":true,"rolled back":true}
redis: EVAL 0, delex > 0: true
ValueError: RedLock::extend(): Argument #2 ($ttl) must be the ttl the lock was taken with (5000 ms, carried by ["token"]) when scripts are not used ("scripts" => false): a command with another ttl could cut the lock short for its other holders
RedLockException: lockShared() of a shared lock needs Lua scripts on the servers, which "scripts" => false forbids: without them only lock() and run() work (docs/guide/script-free.md)
RedLockException: lockSemaphore() of a semaphore needs Lua scripts on the servers, which "scripts" => false forbids: without them only lock() and run() work (docs/guide/script-free.md)
redis several resources: [true,true,true,true,true,true], EVAL 0, MSETEX > 0: true
valkey: {"lock":true,"extend":true,"pttl":true,"validity":true,"unlock":true,"validity after":true,"renewed":true,"run":true,"waited":true,"rollback":true,"rolled back":true}
valkey: EVAL 0, delifeq > 0: true
ValueError: RedLock::extend(): Argument #2 ($ttl) must be the ttl the lock was taken with (5000 ms, carried by ["token"]) when scripts are not used ("scripts" => false): a command with another ttl could cut the lock short for its other holders
RedLockException: lockShared() of a shared lock needs Lua scripts on the servers, which "scripts" => false forbids: without them only lock() and run() work (docs/guide/script-free.md)
RedLockException: lockSemaphore() of a semaphore needs Lua scripts on the servers, which "scripts" => false forbids: without them only lock() and run() work (docs/guide/script-free.md)
valkey several resources: [true,true,true,true,true,true], EVAL 0, MSETEX > 0: true
ValueError: RedLock::__construct(): Argument #4 ($options) option "fencing" needs scripts on the servers, which "scripts" => false forbids
TypeError: RedLock::__construct(): Argument #4 ($options) option "scripts" must be of type bool, string given
bool(true)
bool(false)
array(1) {
  [0]=>
  string(%d) "no script sent ('scripts' => false): this server has neither DELEX (Redis >= 8.4) nor DELIFEQ (Valkey >= 9)"
}
