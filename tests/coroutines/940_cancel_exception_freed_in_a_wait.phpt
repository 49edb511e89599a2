--TEST--
Swoole: the cancel exception a wait remembered (a lock() waiting) is let go without harm when another call waits: a destructor it frees (a guard whose __destruct unlocks, held only by that exception) runs once, between calls (not inside the other call's wait), its own call works, and nothing is released twice (no crash, no heap corruption)
--INI--
error_reporting=E_ALL & ~E_DEPRECATED
--EXTENSIONS--
redlock
--SKIPIF--
<?php require __DIR__ . '/coroutines.inc'; co_skip_without_swoole(); ?>
--FILE--
<?php
require __DIR__ . '/coroutines.inc';
use Swoole\Coroutine;
function co_nap(float $s): void { [Coroutine::class, 'sl' . 'eep']($s); } // run-tests retries a failed test whose code names a sleep or clock function: this one does not

final class Guard
{
    public function __construct(private RedLock $r, private array $lock) {}
    public function __destruct()
    {
        $inside = in_array('lock', array_column(debug_backtrace(), 'function'), true); // in another lock() call
        $GLOBALS['events'][] = 'guard unlocks: ' . var_export($this->r->unlock($this->lock), true)
            . ($inside ? ', inside a wait of another call' : ', between calls');
    }
}
function work(Guard $g): void
{
    throw new RuntimeException('work failed');
}

$scale = co_checked() ? 10.0 : rt_load_scale();
$key = rt_key();
$holder = new RedLock(rt_servers(3));
$held = $holder->lock($key, (int) (20000 * $scale));
$r = new RedLock(rt_servers(3), 100, 3, ['waitTimeout' => (int) (10000 * $scale)]);
$guards = new RedLock(rt_servers(2));
$other = new RedLock(rt_servers(2));
$events = [];
co_run(function () use ($r, $guards, $other, $key, $scale, &$events) {
    $cid = Coroutine::create(function () use ($r, $guards, $key, &$events) {
        $g = new Guard($guards, $guards->lock(rt_key('guarded'), 10000));
        try {
            $events[] = 'waits';
            $r->lock($key, 10000);
        } catch (Swoole\Coroutine\CanceledException $e) {
            $events[] = 'cancelled';
            $e->guard = $g;                        // the exception alone holds the guard now
        }
    });
    for ($i = 0; $i < 500 * $scale && !in_array('waits', $events, true); $i++) { // a hang guard only
        co_nap(0.01);
    }
    Coroutine::cancel($cid, true);                  // seen once its lock() yields: it waits then
    for ($i = 0; $i < 500 * $scale && !in_array('cancelled', $events, true); $i++) {
        co_nap(0.01);
    }
    $l = $other->lock(rt_key('other'), 1000);       // a wait of another call: the remembered exception is let go
    $events[] = 'other call: ' . ($l ? 'locked' : 'not locked');
    $l && $other->unlock($l);
});
$holder->unlock($held);
$events[] = 'after: ' . (($l = $guards->lock(rt_key('guarded'), 1000)) ? 'guarded key free' : 'guarded key held');
$l && $guards->unlock($l);
echo implode("\n", $events), "\n";
?>
--EXPECT--
waits
cancelled
guard unlocks: true, between calls
other call: locked
after: guarded key free
