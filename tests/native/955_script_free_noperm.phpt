--TEST--
Scripts refused by ACL (a user without @scripting), no option: on Redis 8.6 and Valkey 9 the object learns it from the first NOPERM to an EVAL and goes on without scripts: extend() and the unlock() of a waitTimeout object (which release by script) are retried in the same call with the servers' own commands and succeed; autoExtend's thread learns it on its own and keeps renewing; validity() asks the servers (MULTI; GET; PTTL; EXEC); before it learnt, lockShared() gets false with NOPERM in getLastErrors(), afterwards a RedLockException saying why
--EXTENSIONS--
redlock
--INI--
redlock.persistent=0
--SKIPIF--
<?php require __DIR__ . '/native.inc'; nt_skip_without_servers(); ?>
--FILE--
<?php
require __DIR__ . '/native.inc';
$password = 'pw-' . bin2hex(random_bytes(6));
foreach (['redis', 'valkey'] as $kind) {
    $ports = nt_ports($kind);
    foreach ($ports as $p) {
        rt_redis($p, 'ACL', 'SETUSER', 'noscripts', 'reset', 'on', ">$password", '~*', '&*', '+@all', '-@scripting');
    }
    $servers = array_map(fn ($p) => ['host' => '127.0.0.1', 'port' => $p, 'timeout' => 1.0, 'username' => 'noscripts',
        'password' => $password], $ports);
    $key = rt_key($kind);
    $out = [];

    $fresh = new RedLock($servers, 0, 1);
    $out['shared before'] = $fresh->lockShared("$key:s", 1000);
    $out['why'] = array_values(array_unique(array_filter($fresh->getLastErrors(), fn ($e) => $e !== 'no reply needed')));

    $r = new RedLock($servers, 10, 3);
    $lock = $r->lock($key, 5000);
    $ext = $r->extend($lock, 5000); // the script meets NOPERM: learnt, and sent again as SET IFEQ PX
    $out['extend'] = is_array($ext) && $ext['validity'] > 4800;
    $v = $r->validity($lock);
    $out['validity'] = $v > 4000 && $v <= 5000;
    $out['unlock'] = $r->unlock($lock) && rt_settled(fn () => array_sum(array_map(fn ($p) => rt_redis($p, 'EXISTS', $key), $ports))) === 0;
    try {
        $r->lockShared("$key:s", 1000);
        $out['shared after'] = 'no exception';
    } catch (RedLockException $e) {
        $out['shared after'] = $e->getMessage();
    }

    $w = new RedLock($servers, 10, 3, ['waitTimeout' => 1000]); // releases by script, for its waiters
    $held = $w->lock("$key:w", 5000);
    $out['waiter unlock'] = $w->unlock($held) && rt_settled(fn () => array_sum(array_map(fn ($p) => rt_redis($p, 'EXISTS', "$key:w"), $ports))) === 0;

    $a = new RedLock($servers, 10, 3, ['autoExtend' => true]);
    $auto = $a->lock("$key:a", 300);
    usleep(1000000); // its first renewal met NOPERM, then went on without scripts
    $out['renewed'] = $a->validity($auto) > 0 && (new RedLock($servers, 0, 1))->lock("$key:a", 300) === false;
    $out['released'] = $a->unlock($auto);
    foreach ($ports as $p) {
        rt_redis($p, 'ACL', 'DELUSER', 'noscripts');
    }
    echo "$kind: ", json_encode($out, JSON_PRETTY_PRINT), "\n";
}
?>
--EXPECT--
redis: {
    "shared before": false,
    "why": [
        "NOPERM User noscripts has no permissions to run the 'eval' command"
    ],
    "extend": true,
    "validity": true,
    "unlock": true,
    "shared after": "lockShared() of a shared lock needs Lua scripts on the servers, which these servers refuse to this user (NOPERM): without them only lock() and run() work (docs\/guide\/script-free.md)",
    "waiter unlock": true,
    "renewed": true,
    "released": true
}
valkey: {
    "shared before": false,
    "why": [
        "NOPERM User noscripts has no permissions to run the 'eval' command"
    ],
    "extend": true,
    "validity": true,
    "unlock": true,
    "shared after": "lockShared() of a shared lock needs Lua scripts on the servers, which these servers refuse to this user (NOPERM): without them only lock() and run() work (docs\/guide\/script-free.md)",
    "waiter unlock": true,
    "renewed": true,
    "released": true
}
