--TEST--
Swoole: getLastErrors() describes the calling coroutine's own last call, though an observer that yields (a hooked file write) lets other coroutines' calls on the same object finish in between
--EXTENSIONS--
redlock
--SKIPIF--
<?php require __DIR__ . '/coroutines.inc'; co_skip_without_swoole(); ?>
--FILE--
<?php
/* Half the coroutines take a free key (every server votes yes: no errors), half a key another
 * object holds (every server says why not). On 5105392 getLastErrors() read the object's last
 * call to finish: another coroutine's, contradicting the caller's own result. */
require __DIR__ . '/coroutines.inc';
use Swoole\Coroutine;
$log = tempnam(sys_get_temp_dir(), 'rl938');
$r = new RedLock(rt_servers(3, 1.0 * rt_time_scale()), 10, 0, ['observer' => function (array $call) use ($log) {
    file_put_contents($log, $call['call'] . "\n", FILE_APPEND); // yields under SWOOLE_HOOK_ALL
}]);
$holder = new RedLock(rt_servers(3));
$taken = rt_key('taken');
$held = $holder->lock($taken, 30000);
$wrong = 0;
$calls = 0;
co_run(function () use ($r, $taken, &$wrong, &$calls) {
    for ($i = 0; $i < 100; $i++) {
        Coroutine::create(function () use ($r, $taken, $i, &$wrong, &$calls) {
            $lock = $r->lock($i % 2 ? $taken : rt_key("free$i"), 10000);
            /* won: no server said no; not won: some did (a server not needed for the quorum says so) */
            $errors = array_filter($r->getLastErrors(), fn ($e) => $e !== null && $e !== 'no reply needed');
            $calls++;
            if (($lock === false) !== (count($errors) > 0)) {
                $wrong++;
            }
            if ($lock !== false) {
                $r->unlock($lock);
            }
        });
    }
});
echo "$calls calls, $wrong read errors that contradict their own result\n";
$lock = $r->lock(rt_key('outside'), 1000); // outside a coroutine: the object's last call, as before
echo "outside a coroutine, errors: ", count(array_filter($r->getLastErrors(), fn ($e) => $e !== null && $e !== 'no reply needed')), "\n";
$r->unlock($lock);
$holder->unlock($held);
unlink($log);
?>
--EXPECT--
100 calls, 0 read errors that contradict their own result
outside a coroutine, errors: 0
