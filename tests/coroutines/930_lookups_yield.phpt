--TEST--
Swoole: host name lookups inside a coroutine let the worker run: three servers named by a name whose lookup takes 300 ms (the slow resolver shim) are locked while a 10 ms ticker coroutine keeps ticking (longest gap below 20 ms; 250 under a memory checker); servers given as 'localhost' resolve and lock in a coroutine too
--EXTENSIONS--
redlock
--SKIPIF--
<?php require __DIR__ . '/coroutines.inc'; co_skip_without_swoole(); ?>
--FILE--
<?php
require __DIR__ . '/coroutines.inc';
require __DIR__ . '/../inc/slow_resolver.inc';

// A child php with the shim preloaded (and Swoole): the lookups of *.slow.test names are its.
$out = sr_run(<<<'PHP'
use Swoole\Coroutine;
Coroutine::set(['hook_flags' => SWOOLE_HOOK_ALL & ~(SWOOLE_HOOK_CURL | SWOOLE_HOOK_NATIVE_CURL)]);
$report = [];
// Once before measuring, through the same paths: under valgrind (which follows this child) their
// first run is slow to translate.
Coroutine\run(function () use ($args) {
    $r = new RedLock(array_map(fn ($p) => ['ms10-warm.slow.test', $p, 2.0], $args['ports']), 10, 1);
    ($lock = $r->lock($args['key'] . 'warm', 1000)) && $r->unlock($lock);
});
foreach (['ms300-redis.slow.test', 'localhost'] as $host) {
    $longest = 0.0;
    $ticks = 0;
    $result = null;
    Coroutine\run(function () use ($host, $args, &$longest, &$ticks, &$result) {
        $done = false;
        Coroutine::create(function () use (&$done, &$longest, &$ticks) {
            $last = microtime(true);
            $end = $last + 5;
            while (!$done && microtime(true) < $end) {
                Coroutine::sleep(0.01);
                $now = microtime(true);
                $longest = max($longest, ($now - $last) * 1000);
                $last = $now;
                $ticks++;
            }
        });
        Coroutine::create(function () use ($host, $args, &$done, &$result) {
            $t = microtime(true);
            $r = new RedLock(array_map(fn ($p) => [$host, $p, 2.0], $args['ports']), 10, 1);
            $lock = $r->lock($args['key'] . $host, 1000);
            $result = [$lock !== false, $lock !== false && $r->unlock($lock), (microtime(true) - $t) * 1000];
            $done = true;
        });
    });
    $report[$host] = ['locked' => $result[0], 'unlocked' => $result[1], 'ms' => $result[2], 'gap' => $longest, 'ticks' => $ticks];
}
echo json_encode($report);
PHP, ['ports' => array_slice(rt_ports(), 0, 3), 'key' => rt_key('lookup')], [co_swoole_path()]);
$bound = co_gap_bound();

$report = json_decode($out, true) ?? rt_fatal("the child printed: $out");
foreach ($report as $host => $r) {
    echo "$host: ", $r['locked'] ? 'locked' : 'not locked', ', ', $r['unlocked'] ? 'unlocked' : 'not unlocked', ', ',
        $r['gap'] < $bound ? 'longest gap below the bound' : sprintf('longest gap %.0f ms (bound %.0f)', $r['gap'], $bound), "\n";
}
$slow = $report['ms300-redis.slow.test'];
echo $slow['ms'] >= 290 && $slow['ticks'] >= 20 ? 'the lookup took its 300 ms, and the ticker ticked meanwhile'
    : sprintf('the call took %.0f ms, %d ticks', $slow['ms'], $slow['ticks']), "\n";
?>
--EXPECT--
ms300-redis.slow.test: locked, unlocked, longest gap below the bound
localhost: locked, unlocked, longest gap below the bound
the lookup took its 300 ms, and the ticker ticked meanwhile
