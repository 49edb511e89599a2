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
            $out["$how extends"] = is_array($ext) && min(array_map(fn ($p) => rt_redis($p, 'PTTL', $key), $ports)) > 9900;
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
