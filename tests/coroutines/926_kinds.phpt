--TEST--
Swoole: every lock kind in coroutines of one object at once: 10 coroutines share a lockShared() while a lock() waits for them all, a semaphore of 3 never has more than 3 holders among 12 coroutines, fenced tokens grow, a multi-resource lock excludes each of its resources
--EXTENSIONS--
redlock
--SKIPIF--
<?php require __DIR__ . '/coroutines.inc'; co_skip_without_swoole(); ?>
--FILE--
<?php
require __DIR__ . '/coroutines.inc';
use Swoole\Coroutine;
$r = new RedLock(rt_servers(3), 20, 200);
$f = new RedLock(rt_servers(3), 20, 200, ['fencing' => true]);
$shared = rt_key('shared');
$sem = rt_key('sem');
$fenced = rt_key('fenced');
$a = rt_key('a');
$b = rt_key('b');
$out = ['readers' => 0, 'most readers' => 0, 'writer saw readers' => -1, 'sem most' => 0, 'sem done' => 0,
    'fences' => [], 'multi overlap' => 0, 'multi done' => 0];
co_run(function () use ($r, $f, $shared, $sem, $fenced, $a, $b, &$out) {
    for ($i = 0; $i < 10; $i++) {
        Coroutine::create(function () use ($r, $shared, &$out) {
            $l = $r->lockShared($shared, 3000);
            $out['readers']++;
            $out['most readers'] = max($out['most readers'], $out['readers']);
            Coroutine::sleep(0.2);
            $out['readers']--;
            $r->unlock($l);
        });
    }
    Coroutine::create(function () use ($r, $shared, &$out) {
        Coroutine::sleep(0.05);
        $l = $r->lock($shared, 3000);               // retries until every reader left
        $out['writer saw readers'] = $l ? $out['readers'] : -2;
        $l && $r->unlock($l);
    });
    $inside = 0;
    for ($i = 0; $i < 12; $i++) {
        Coroutine::create(function () use ($r, $sem, &$out, &$inside) {
            $l = $r->lockSemaphore($sem, 3, 3000);
            if (!$l) { return; }
            $inside++;
            $out['sem most'] = max($out['sem most'], $inside);
            Coroutine::sleep(0.05);
            $inside--;
            $out['sem done'] += $r->unlock($l);
        });
    }
    for ($i = 0; $i < 8; $i++) {
        Coroutine::create(function () use ($f, $fenced, &$out) {
            $l = $f->lock($fenced, 3000);
            if ($l) {
                $out['fences'][] = $l['fence'];
                Coroutine::sleep(0.01);
                $f->unlock($l);
            }
        });
    }
    $holding = ['a' => 0, 'b' => 0];
    for ($i = 0; $i < 6; $i++) {
        Coroutine::create(function () use ($r, $a, $b, $i, &$out, &$holding) {
            $set = $i % 2 ? [$a, $b] : [$i % 4 ? $a : $b];
            $l = $r->lock($set, 3000);
            if (!$l) { return; }
            foreach ($set as $k) { $holding[$k === $a ? 'a' : 'b']++; }
            $out['multi overlap'] += max($holding) > 1;
            Coroutine::sleep(0.03);
            foreach ($set as $k) { $holding[$k === $a ? 'a' : 'b']--; }
            $out['multi done'] += $r->unlock($l);
        });
    }
});
$fences = $out['fences'];
$sorted = $fences;
sort($sorted);
$out['fences'] = count($fences) . ' fences, ' . ($fences === $sorted && count(array_unique($fences)) === count($fences) ? 'increasing' : 'NOT increasing: ' . implode(',', $fences));
foreach ($out as $k => $v) { echo "$k: $v\n"; }
?>
--EXPECT--
readers: 0
most readers: 10
writer saw readers: 0
sem most: 3
sem done: 12
fences: 8 fences, increasing
multi overlap: 0
multi done: 6
