--TEST--
Revolt: a Fiber that waits with waitTimeout on a held lock lets the loop run: a 10 ms repeat timer's gaps stay below 20 ms; the wait ends at its deadline, or when another callback releases the lock
--EXTENSIONS--
redlock
--SKIPIF--
<?php require __DIR__ . '/../inc/revolt.inc'; if ($why = rt_revolt_skip_reason()) die("skip $why"); ?>
--FILE--
<?php
require __DIR__ . '/../inc/revolt.inc';
rt_revolt_load();
use Revolt\EventLoop;

$key = rt_key();
$holder = new RedLock(rt_servers(3), 0, 1);
$held = $holder->lock($key, 10000);
var_dump(is_array($held));

$r = new RedLock(rt_servers(3), 200, 1, ['waitTimeout' => 600]); // between attempts: a release, or 100-200 ms
$result = [];
$ticker = rt_ticker(function () use ($r, $key, &$ticker, &$result) {
    $t = hrtime(true);
    $result['held: lock()'] = $r->lock($key, 5000);
    $result['held: waited ms'] = (hrtime(true) - $t) / 1e6;
    // Again: a timer callback releases it 200 ms in, and the release wakes this wait.
    $t = hrtime(true);
    $lock = $r->lock($key, 5000);
    $result['released: lock()'] = is_array($lock) ? 'won' : 'not won';
    $result['released: waited ms'] = (hrtime(true) - $t) / 1e6;
    if (is_array($lock)) {
        $r->unlock($lock);
    }
    $result['gap'] = rt_ticker_stop($ticker);
});
EventLoop::delay(0.8, function () use ($holder, $held) { $holder->unlock($held); });
EventLoop::run();

var_dump($result['held: lock()']);
echo 'ended at its deadline: ', var_export($result['held: waited ms'] >= 590 && $result['held: waited ms'] < 900, true), "\n";
echo 'released: ', $result['released: lock()'], ', woken by the release: ',
    var_export($result['released: waited ms'] < 450, true), "\n";
echo rt_gap_verdict($result['gap']), "\n";
echo 'the timer ran all along: ', var_export($result['gap'][1] >= 50 / rt_revolt_time_scale(), true), "\n";
?>
--EXPECT--
bool(true)
bool(false)
ended at its deadline: true
released: won, woken by the release: true
gaps below the bound
the timer ran all along: true
