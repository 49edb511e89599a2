--TEST--
abortOnLoss: when a renewal finds the lock lost, $fn is interrupted at its next opcode boundary by RedLockException (a PHP loop, a CPU loop); the lock's release and the thread's join still happen; without autoExtend the option is refused
--EXTENSIONS--
redlock
--FILE--
<?php
require __DIR__ . '/../inc/watch.inc';
$key = rt_key();
$r = new RedLock(rt_servers(5, 1.0), 10, 0, ['autoExtend' => true, 'abortOnLoss' => true, 'persistent' => false]);
$threads = wt_threads();
$loops = [
    'sleeping loop' => function () { usleep(1000); },
    'CPU loop' => function () { hash('sha256', 'x'); },
];
foreach ($loops as $name => $step) {
    $reached = false;
    echo "$name: ", rt_throws(function () use ($r, $key, $step, &$reached) {
        $r->run($key, 600, function (array $lock) use ($key, $step, &$reached) {
            rt_take($key); // the next renewal (after ttl/3) finds it taken
            $deadline = microtime(true) + 30; // hang guard only
            while (microtime(true) < $deadline) {
                $step();
            }
            $reached = true;
        });
    }), "\n";
    echo 'code after the loop reached: ', var_export($reached, true), ', threads after: ', wt_threads_settled($threads) - $threads, "\n";
    rt_del($key); // the other owner leaves
}
// A lock that stays ours is never interrupted.
echo $r->run($key, 1500, function () { usleep(1200000); return "kept\n"; });
echo rt_throws(fn () => new RedLock(rt_servers(1), 10, 0, ['abortOnLoss' => true])), "\n";
?>
--EXPECTF--
sleeping loop: RedLockException: The lock on "%s" was lost during the work: a renewal did not reach a quorum, or maxExtensions was reached (abortOnLoss)
code after the loop reached: false, threads after: 0
CPU loop: RedLockException: The lock on "%s" was lost during the work: a renewal did not reach a quorum, or maxExtensions was reached (abortOnLoss)
code after the loop reached: false, threads after: 0
kept
ValueError: RedLock::__construct(): Argument #4 ($options) option "abortOnLoss" needs "autoExtend" => true
