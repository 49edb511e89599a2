--TEST--
Swoole: a fair waiter whose coroutine is cancelled (Coroutine::cancel($cid, true)) while it waits leaves the queue at once: its call ends with the cancel exception before the lock is released (it does not take the lock at its turn and throw, leaving that lock to live until its ttl), inspect() counts one waiter fewer, and the others get the lock in their order of arrival as soon as the holder releases it; a plain waitTimeout waiter cancelled so ends too and holds nothing
--EXTENSIONS--
redlock
--SKIPIF--
<?php require __DIR__ . '/coroutines.inc'; co_skip_without_swoole(); ?>
--FILE--
<?php
require __DIR__ . '/coroutines.inc';
use Swoole\Coroutine;

$scale = co_checked() ? 10.0 : rt_load_scale();
foreach (['fair' => ['fair' => true], 'plain waitTimeout' => []] as $case => $fair) {
    $key = rt_key($case);
    $holder = new RedLock(rt_servers(3));
    $ttl = (int) (8000 * $scale);                     // longer than d's waitTimeout: a lock c took and left would be seen
    $held = $holder->lock($key, $ttl);
    $r = new RedLock(rt_servers(3), 100, 3, $fair + ['waitTimeout' => (int) (6000 * $scale)]);
    $events = [];
    co_run(function () use ($r, $holder, $held, $key, $ttl, $scale, $case, &$events) {
        $cids = [];
        foreach (['a', 'b', 'c', 'd'] as $name) {
            $cids[$name] = Coroutine::create(function () use ($r, $key, $ttl, $name, &$events) {
                try {
                    $l = $r->lock($key, $ttl);
                    $events[] = $l ? "$name got it" : "$name: false";
                    $l && $r->unlock($l);
                } catch (Swoole\Coroutine\CanceledException $e) {
                    $events[] = "$name cancelled";
                }
            });
            // each queued (fair) or waiting (plain) before the next arrives: arrival order is a, b, c, d
            $until = microtime(true) + 5 * $scale;
            do {
                Coroutine::sleep(0.15);
            } while ($case === 'fair' && ($holder->inspect($key)['waiters'] ?? 0) < count($cids) && microtime(true) < $until);
        }
        Coroutine::cancel($cids['c'], true);
        $until = microtime(true) + 3 * $scale;
        while (microtime(true) < $until && !in_array('c cancelled', $events, true)) {
            Coroutine::sleep(0.02);
        }
        $events[] = 'released';                        // only now: a call still waiting for its turn would not have ended
        if ($case === 'fair') {
            // c's leave is sent without awaiting its reply: read until it landed (a waiter that kept its
            // place, as c did before, stays counted: its call went on heartbeating)
            $until = microtime(true) + 3 * $scale;
            while (($waiters = $holder->inspect($key)['waiters'] ?? null) !== 3 && microtime(true) < $until) {
                Coroutine::sleep(0.02);
            }
            $events[] = "waiters $waiters";
        }
        $holder->unlock($held);
        $until = microtime(true) + 10 * $scale;
        while (microtime(true) < $until && count(preg_grep('/^[abd] /', $events)) < 3) {
            Coroutine::sleep(0.02);
        }
    });
    $next = $holder->lock($key, 1000);                 // nothing of c's left behind
    echo "$case: ", implode(', ', $events), '; then free: ', $next ? 'yes' : 'no', "\n";
    $next && $holder->unlock($next);
}
?>
--EXPECTF--
fair: c cancelled, released, waiters 3, a got it, b got it, d got it; then free: yes
plain waitTimeout: c cancelled, released, %s got it, %s got it, %s got it; then free: yes
