--TEST--
Swoole: the object's last call, read by a coroutine that made no call of its own, is that call's votes while its set serves the next call and after the idle spare set is closed
--EXTENSIONS--
redlock
--SKIPIF--
<?php require __DIR__ . '/coroutines.inc'; co_skip_without_swoole(); ?>
--FILE--
<?php
/* The object's last call pointed at the votes of the set it ran on: a coroutine that made no call
 * yet (or one beyond the 128 the object remembers) read, through getLastErrors(), the votes of
 * the next call on that set while it ran ('no reply needed' for every server), and, once the
 * spare set was closed idle (2 s, at the object's next call, or to make room for a waiter's
 * subscriptions), freed memory. Now the object keeps a copy. */
require __DIR__ . '/coroutines.inc';
use Swoole\Coroutine;

$scale = rt_time_scale();
$r = new RedLock(rt_servers(3, 0.5 * $scale), 100, 2, ['persistent' => false]);
$taken = rt_key('taken');
rt_take($taken);
$seen = [];
/* X's call is on the object's own set when Y starts: Y runs on a spare, and ends last (it retries a
 * key another owner holds); then a coroutine with no call of its own reads the object's last call */
$lastOnASpare = function (string $name) use ($r, $taken, &$seen) {
    co_run(function () use ($r, $taken, &$seen) {
        Coroutine::create(function () use ($r) { $r->unlock($r->lock(rt_key('x'), 10000)); });
        Coroutine::create(function () use ($r, $taken, &$seen) { $seen['y won'] = $r->lock($taken, 10000) !== false; });
    });
    co_run(function () use ($r, $name, &$seen) { $seen[$name] = $r->getLastErrors(); });
};
$lastOnASpare('fresh, before');
co_run(function () use ($r, &$seen) {
    /* the first on the object's own set, the second on the spare, still on its way */
    Coroutine::create(function () use ($r) { $r->unlock($r->lock(rt_key('w1'), 10000)); });
    Coroutine::create(function () use ($r) { $r->unlock($r->lock(rt_key('w2'), 10000)); });
    $seen['fresh, while its set serves another'] = $r->getLastErrors();
});
$lastOnASpare('fresh, again');
co_run(function () use ($r, $scale, &$seen) {
    /* the spare is idle for the period (2 s, or the call bound if longer): the next call closes it */
    Coroutine::sleep(max(2.2, 0.5 * $scale + 0.2));
    /* the first closes the spare; the second opens one, its votes where the closed one's were */
    Coroutine::create(function () use ($r) { $r->unlock($r->lock(rt_key('z1'), 10000)); });
    Coroutine::create(function () use ($r) { $r->unlock($r->lock(rt_key('z2'), 10000)); });
    $seen['fresh, while the next call runs'] = $r->getLastErrors(); // a coroutine with no call of its own
});
echo 'y won: ', var_export($seen['y won'], true), "\n";
/* a server needed for no quorum may say 'no reply needed' instead of 'taken' */
echo 'before: every server said why not: ', var_export(count(array_filter($seen['fresh, before'], 'is_string')) === 3, true), "\n";
echo 'while its set serves another: the same: ', var_export($seen['fresh, while its set serves another'] === $seen['fresh, before'], true), "\n";
if ($seen['fresh, while its set serves another'] !== $seen['fresh, before']) {
    echo '  read ', json_encode($seen['fresh, while its set serves another']), ' for ', json_encode($seen['fresh, before']), "\n";
}
echo 'after the spare closed: the same: ', var_export($seen['fresh, while the next call runs'] === $seen['fresh, again'], true), "\n";
if ($seen['fresh, while the next call runs'] !== $seen['fresh, again']) {
    echo '  read ', json_encode($seen['fresh, while the next call runs']), ' for ', json_encode($seen['fresh, again']), "\n";
}
rt_del($taken);
?>
--EXPECT--
y won: false
before: every server said why not: true
while its set serves another: the same: true
after the spare closed: the same: true
