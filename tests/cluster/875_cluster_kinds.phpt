--TEST--
Every lock kind on both forms: on a cluster member, semaphores, shared locks, fencing, inspect(), run(), autoExtend and waitTimeout work on a hash-tagged resource; the kinds that keep keys beside the resource (semaphore slots, a shared lock's mark of waiting writers, the fence counter, inspect()'s reads) are refused with a clear error without a hash tag; on fromCluster() every kind works on any resource (each member's tag holds them together)
--EXTENSIONS--
redlock
--SKIPIF--
<?php require __DIR__ . '/../inc/cluster.inc'; echo cl_skip_reason();
--FILE--
<?php
require __DIR__ . '/../inc/cluster.inc';
$seeds = getenv('REDLOCK_TEST_CLUSTER');
$forms = [
    'cluster member' => fn (array $o = []) => new RedLock(['cluster://' . $seeds . '?timeout=1'], 20, 1, $o),
    'fromCluster' => fn (array $o = []) => RedLock::fromCluster($seeds . '?timeout=1', 20, 1, $o),
];
// the load per core too: autoExtend renews every ttl / 3, and a renewal thread late by two thirds of a 200 ms
// ttl lost the lock (php8.5 leg at load 25: "autoExtend": [null,null,null])
$ttl = (int) (200 * rt_time_scale() * rt_load_scale());
foreach ($forms as $form => $make) {
    foreach (['tagged' => '{' . rt_key('t') . '}', 'untagged' => rt_key('u')] as $kind => $res) {
        if ($form === 'fromCluster' && $kind === 'tagged') {
            continue; // its members tag every key anyway
        }
        $r = $make();
        $out = [];
        $s = $r->lockSemaphore("$res:sem", 2, 5000);
        $out['semaphore'] = $s ? 'ok' : $r->getLastErrors()[0];
        $s && $r->unlock($s);
        $s = $r->lockShared("$res:shared", 5000);
        $t = $r->lockShared("$res:shared", 5000);
        $out['shared'] = $s && $t && !$r->lock("$res:shared", 1000) ? 'ok' : json_encode($r->getLastErrors());
        $s && $r->unlock($s);
        $t && $r->unlock($t);
        $f = $make(['fencing' => true]);
        $a = $f->lock("$res:fenced", 5000);
        $a && $f->unlock($a);
        $b = $f->lock("$res:fenced", 5000);
        $out['fencing'] = $a && $b ? ($b['fence'] > $a['fence'] ? 'ok' : 'fence not increasing') : $f->getLastErrors()[0];
        $b && $f->unlock($b);
        $held = $r->lock("$res:inspect", 5000);
        $seen = $r->inspect("$res:inspect");
        $out['inspect'] = $seen !== null ? ($seen['held'] ? 'ok' : json_encode($seen)) : $r->getLastErrors()[0];
        $held && $r->unlock($held);
        $out['run'] = $r->run("$res:run", 5000, fn () => 'ran');
        $auto = $make(['autoExtend' => true]);
        $l = $auto->lock("$res:auto", $ttl);
        usleep((int) (2.5 * $ttl * 1000)); // past the ttl: renewed
        $out['autoExtend'] = $l && $auto->validity($l) > 0 ? 'ok' : json_encode($auto->getLastErrors());
        $l && $auto->unlock($l);
        $holder = $make();
        $waiter = $make(['waitTimeout' => (int) (5000 * rt_time_scale())]);
        $h = $holder->lock("$res:wait", 30000);
        $pid = pcntl_fork();
        if ($pid === 0) {
            usleep((int) (150000 * rt_time_scale()));
            $holder->unlock($h);
            exit(0);
        }
        [$w, $ms] = rt_timed(fn () => $waiter->lock("$res:wait", 5000));
        pcntl_waitpid($pid, $status);
        $out['waitTimeout'] = $w ? 'ok' : json_encode($waiter->getLastErrors());
        $w && $waiter->unlock($w);
        echo "$form, $kind: ", json_encode($out), "\n";
    }
}
?>
--EXPECT--
cluster member, tagged: {"semaphore":"ok","shared":"ok","fencing":"ok","inspect":"ok","run":"ran","autoExtend":"ok","waitTimeout":"ok"}
cluster member, untagged: {"semaphore":"cluster: keys on different slots (several resources, or a kind's keys beside one): give them a hash tag, like {order}","shared":"[\"cluster: keys on different slots (several resources, or a kind's keys beside one): give them a hash tag, like {order}\"]","fencing":"cluster: keys on different slots (several resources, or a kind's keys beside one): give them a hash tag, like {order}","inspect":"cluster: keys on different slots (several resources, or a kind's keys beside one): give them a hash tag, like {order}","run":"ran","autoExtend":"ok","waitTimeout":"ok"}
fromCluster, untagged: {"semaphore":"ok","shared":"ok","fencing":"ok","inspect":"ok","run":"ran","autoExtend":"ok","waitTimeout":"ok"}
