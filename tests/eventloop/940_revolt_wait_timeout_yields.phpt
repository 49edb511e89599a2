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

/* On a machine busier than its cores (rt_load_scale(), 1 otherwise: the test as it was) the wait, the slack after
 * its deadline and the release scale together: the first wait must end near its deadline (before the release, or
 * the release would win it), the second must be woken by the release well before its own deadline (450 ms against
 * 600, times the same scale: a wait the release does not wake still fails). */
$scale = rt_load_scale();
$wait = (int) (600 * $scale);
$release = $wait + 200 * $scale; // ms from the start: 200 ms after the first wait's deadline (times the scale)
$r = new RedLock(rt_servers(3), 200, 1, ['waitTimeout' => $wait]); // between attempts: a release, or 100-200 ms
$result = [];
$ticker = rt_ticker(function () use ($r, $key, &$ticker, &$result) {
    $t = hrtime(true);
    $result['held: lock()'] = $r->lock($key, 5000);
    $result['held: waited ms'] = (hrtime(true) - $t) / 1e6;
    // Again: a timer callback releases it about 200 ms in, and the release wakes this wait.
    $t = hrtime(true);
    $lock = $r->lock($key, 5000);
    $result['released: lock()'] = is_array($lock) ? 'won' : 'not won';
    $result['released: waited ms'] = (hrtime(true) - $t) / 1e6;
    if (is_array($lock)) {
        $r->unlock($lock);
    }
    $result['gap'] = rt_ticker_stop($ticker);
});
EventLoop::delay($release / 1000, function () use ($holder, $held) { $holder->unlock($held); });
EventLoop::run();

var_dump($result['held: lock()']);
echo 'ended at its deadline: ', var_export($result['held: waited ms'] >= $wait - 10 && $result['held: waited ms'] < $wait + 300 * $scale, true), "\n";
echo 'released: ', $result['released: lock()'], ', woken by the release: ',
    var_export($result['released: waited ms'] < 450 * $scale, true), "\n";
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
