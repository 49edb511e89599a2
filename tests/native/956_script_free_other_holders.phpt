--TEST--
Other holders of a script-free lock on Redis 8.6 and Valkey 9 (issue 24, defect 1): x takes lock('r', 10000) with 'scripts' => false, y (another object) calls extend($lock, 300): a ValueError, the keys keep their 10 s, and z's lock() 450 ms later is false while x's validity() says held (f334b16: y's SET IFEQ PX 300 cut the keys, z won, x's validity() said 9.4 s from its lease); the arrays restored from serialize() and json_encode() extend with the lock's own ttl; after y's unlock() x's validity() asks the servers and says false; no EVAL is sent
--EXTENSIONS--
redlock
--SKIPIF--
<?php require __DIR__ . '/native.inc'; nt_skip_without_servers(); ?>
--FILE--
<?php
require __DIR__ . '/native.inc';
foreach (['redis', 'valkey'] as $kind) {
    $ports = nt_ports($kind);
    $servers = array_map(fn ($p) => "redis://127.0.0.1:$p", $ports);
    $key = rt_key($kind);
    $out = [];
    $calls = nt_count($ports, ['eval', 'multi', 'exec'], function () use ($servers, $ports, $key, &$out) {
        $free = ['scripts' => false];
        $x = new RedLock($servers, 0, 1, $free);
        $y = new RedLock($servers, 0, 1, $free);
        $z = new RedLock($servers, 0, 1, $free);
        $lock = $x->lock($key, 10000);
        try {
            $y->extend($lock, 300);
            $out['other ttl'] = 'accepted';
        } catch (ValueError $e) {
            $out['other ttl'] = 'ValueError';
        }
        usleep(450000);
        $out['z after 450 ms'] = $z->lock($key, 10000);
        $out['x validity > 9 s'] = $x->validity($lock) > 9000;
        foreach (['serialize' => unserialize(serialize($lock)), 'json' => json_decode(json_encode($lock), true)] as $how => $copy) {
            $ext = (new RedLock($servers, 0, 1, $free))->extend($copy, 10000);
            $out["$how extends"] = is_array($ext) && min(array_map(fn ($p) => rt_redis($p, 'PTTL', $key), $ports)) > 9700; // unextended: under 9550
        }
        $out['y unlock'] = $y->unlock($lock);
        $out['x validity after'] = $x->validity($lock);
        $out['z takes it'] = is_array($taken = $z->lock($key, 1000)) && $z->unlock($taken);
    });
    $out['EVAL sent'] = array_sum(array_column($calls, 'eval'));
    $out['EXEC on every server'] = min(array_column($calls, 'exec')) >= 1;
    echo "$kind: ", json_encode($out), "\n";
}
?>
--EXPECT--
redis: {"other ttl":"ValueError","z after 450 ms":false,"x validity > 9 s":true,"serialize extends":true,"json extends":true,"y unlock":true,"x validity after":false,"z takes it":true,"EVAL sent":0,"EXEC on every server":true}
valkey: {"other ttl":"ValueError","z after 450 ms":false,"x validity > 9 s":true,"serialize extends":true,"json extends":true,"y unlock":true,"x validity after":false,"z takes it":true,"EVAL sent":0,"EXEC on every server":true}
