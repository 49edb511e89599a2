<?php
/* The checker's own test: small hand-written histories, each with the verdict it must get.
 *   php verify/chaos/checker_test.php     (about 0.1 s; CI runs it beside the short checked chaos run)
 * Times in the records are nanoseconds; ms() keeps the cases readable. */

declare(strict_types=1);
require __DIR__ . '/checker.php';

function ms(float $m): int
{
    return (int) round($m * 1e6);
}
function lock_rec(string $w, string $tok, float $t0, ?float $t1, string $out, ?float $validity = null, ?int $fence = null, string $res = 'r'): array
{
    return array_filter(['w' => $w, 'op' => 'lock', 'res' => $res, 't0' => ms($t0), 't1' => $t1 === null ? null : ms($t1),
        'out' => $out, 'token' => $tok, 'validity' => $validity, 'fence' => $fence], fn ($v) => $v !== null);
}
function call_rec(string $op, string $w, string $tok, float $t0, float $t1, string $out, ?float $validity = null, string $res = 'r'): array
{
    return array_filter(['w' => $w, 'op' => $op, 'res' => $res, 't0' => ms($t0), 't1' => ms($t1), 'out' => $out,
        'token' => $tok, 'validity' => $validity], fn ($v) => $v !== null);
}
function write_rec(string $w, string $tok, int $seq, int $fence, bool $accepted, float $t = 0.0): array
{
    return ['w' => $w, 'op' => 'write', 'res' => 'r', 't0' => ms($t), 't1' => ms($t), 'out' => 'ok', 'token' => $tok,
        'fence' => $fence, 'accepted' => $accepted, 'seq' => $seq];
}

$cases = [
    'valid: two holders one after the other' => [[
        lock_rec('a', 'A', 0, 1, 'ok', 50), call_rec('unlock', 'a', 'A', 20, 21, 'ok'),
        lock_rec('b', 'B', 10, 30, 'ok', 50), call_rec('unlock', 'b', 'B', 60, 61, 'ok'),
    ], 0, 0],
    'valid: the rival acquires after the promise ran out (never unlocked)' => [[
        lock_rec('a', 'A', 0, 1, 'ok', 50), lock_rec('b', 'B', 40, 52, 'ok', 50),
    ], 0, 0],
    'overlap: the rival acquires inside the promise' => [[
        lock_rec('a', 'A', 0, 1, 'ok', 50), lock_rec('b', 'B', 5, 30, 'ok', 50),
        call_rec('unlock', 'a', 'A', 40, 41, 'ok'),
    ], 1, 0],
    'overlap: a child forked inside run() released the lock, a rival acquired inside the parent\'s promise' => [[
        ['w' => 'x', 'op' => 'run', 't1' => ms(0), 'out' => 'ok', 'kind' => 'fork', 'coroutines' => 1],
        lock_rec('a', 'A', 0, 1, 'ok', 50), call_rec('fork', 'a', 'A', 2, 4, 'ok'),
        lock_rec('b', 'B', 3, 6, 'ok', 50), call_rec('unlock', 'a', 'A', 30, 31, 'ok'),
    ], 1, 0],
    'valid: a fork inside run(), the rival after the parent\'s unlock; faults of the combined kinds' => [[
        lock_rec('a', 'A', 0, 1, 'ok', 50), call_rec('fork', 'a', 'A', 2, 4, 'ok'),
        ['op' => 'fault', 'kind' => 'acl-revoke', 'port' => 1, 't' => ms(5), 'in_model' => true, 'scope' => ''],
        ['op' => 'fault', 'kind' => 'net-reorder', 'port' => 1, 't' => ms(6), 'in_model' => true, 'scope' => ''],
        ['op' => 'fault', 'kind' => 'failover', 'port' => 2, 't' => ms(7), 'in_model' => true, 'scope' => ''],
        call_rec('unlock', 'a', 'A', 30, 31, 'ok'), lock_rec('b', 'B', 3, 32, 'ok', 50),
    ], 0, 0],
    'valid: a holder SIGKILLed inside unlock(): its unlock-begin ends the use, the unlock record never came' => [[
        lock_rec('a', 'A', 0, 1, 'ok', 50), call_rec('unlock-begin', 'a', 'A', 20, 20, 'ok'),
        lock_rec('b', 'B', 10, 30, 'ok', 50), call_rec('unlock', 'b', 'B', 60, 61, 'ok'),
    ], 0, 0],
    'overlap: an extend stretches the promise' => [[
        lock_rec('a', 'A', 0, 1, 'ok', 10), call_rec('extend', 'a', 'A', 5, 6, 'ok', 50),
        lock_rec('b', 'B', 20, 30, 'ok', 50),
    ], 1, 0],
    'valid: a refused or indeterminate extend promises nothing' => [[
        lock_rec('a', 'A', 0, 1, 'ok', 10), call_rec('extend', 'a', 'A', 5, 6, 'fail'),
        call_rec('extend', 'a', 'A', 7, 9, 'info'), lock_rec('b', 'B', 12, 14, 'ok', 50),
    ], 0, 0],
    'overlap: validity() promises from its invoke' => [[
        lock_rec('a', 'A', 0, 1, 'ok', 10), call_rec('validity', 'a', 'A', 8, 9, 'ok', 20),
        lock_rec('b', 'B', 20, 27, 'ok', 50),
    ], 1, 0],
    'valid: validity() measured at invoke, the rival after it' => [[
        lock_rec('a', 'A', 0, 1, 'ok', 10), call_rec('validity', 'a', 'A', 8, 9, 'ok', 20),
        lock_rec('b', 'B', 20, 28.5, 'ok', 50),
    ], 0, 0],
    'valid: an indeterminate lock (exception, crash) is possibly acquired, never a holder' => [[
        lock_rec('a', 'A', 0, 100, 'info'), lock_rec('c', 'C', 0, null, 'info'),
        lock_rec('b', 'B', 5, 30, 'ok', 50), call_rec('unlock', 'b', 'B', 40, 41, 'info'),
        lock_rec('d', 'D', 35, 39, 'fail'),
    ], 0, 0],
    'valid: an unlock whose outcome is unknown still ends the holder\'s use' => [[
        lock_rec('a', 'A', 0, 1, 'ok', 50), call_rec('unlock', 'a', 'A', 10, 30, 'info'),
        lock_rec('b', 'B', 12, 14, 'ok', 50),
    ], 0, 0],
    'fence regression: the resource accepted a lower fence' => [[
        write_rec('a', 'A', 1, 5, true), write_rec('b', 'B', 2, 7, true), write_rec('a', 'A', 3, 6, true),
    ], 0, 1],
    'valid: the resource refused the lower fence (a stale holder)' => [[
        write_rec('a', 'A', 1, 5, true), write_rec('b', 'B', 2, 7, true), write_rec('a', 'A', 3, 6, false),
        write_rec('b', 'B', 4, 7, true),
    ], 0, 0],
    'fence regression: a later lock got a smaller fence' => [[
        lock_rec('a', 'A', 0, 1, 'ok', 10, 5), lock_rec('b', 'B', 20, 22, 'ok', 10, 4),
    ], 0, 1],
    'valid: concurrent acquisitions may take fences in either order' => [[
        lock_rec('a', 'A', 0, 10, 'ok', 10, 5), lock_rec('b', 'B', 5, 30, 'ok', 10, 4),
        call_rec('unlock', 'a', 'A', 12, 13, 'ok'),
    ], 0, 0],
    'outside the model: an overlap across a server clock jump is counted apart' => [[
        lock_rec('a', 'A', 0, 1, 'ok', 50), ['op' => 'fault', 'kind' => 'clock-jump', 'in_model' => false, 't' => ms(3), 'scope' => ''],
        lock_rec('b', 'B', 5, 30, 'ok', 50),
    ], 0, 0, 1],
    'in the model: a fault on another run\'s scope does not excuse an overlap' => [[
        lock_rec('a', 'A', 0, 1, 'ok', 50), ['op' => 'fault', 'kind' => 'clock-jump', 'in_model' => false, 't' => ms(3), 'scope' => 'other:'],
        lock_rec('b', 'B', 5, 30, 'ok', 50),
    ], 1, 0, 0],
    'outside the model: the holder invoked before a restart without persistence completes after its rival' => [[
        lock_rec('a', 'A', 0, 40, 'ok', 50), ['op' => 'fault', 'kind' => 'restart', 'in_model' => false, 't' => ms(20), 'scope' => ''],
        lock_rec('b', 'B', 35, 36, 'ok', 50),
    ], 0, 0, 1],
    'in the model: both invoked after the restart without persistence' => [[
        ['op' => 'fault', 'kind' => 'restart', 'in_model' => false, 't' => ms(20), 'scope' => ''],
        lock_rec('a', 'A', 25, 40, 'ok', 50), lock_rec('b', 'B', 35, 36, 'ok', 50),
    ], 1, 0, 0],
    'fences: a restart without persistence (delayed, in the model for keys) excuses a smaller later fence' => [[
        lock_rec('a', 'A', 0, 1, 'ok', 10, 5),
        ['op' => 'fault', 'kind' => 'restart', 'in_model' => true, 'fences_in_model' => false, 't' => ms(15), 'scope' => ''],
        lock_rec('b', 'B', 20, 22, 'ok', 10, 4),
    ], 0, 0],
    'fences: a restart without persistence excuses no overlap' => [[
        lock_rec('a', 'A', 0, 1, 'ok', 50),
        ['op' => 'fault', 'kind' => 'restart', 'in_model' => true, 'fences_in_model' => false, 't' => ms(3), 'scope' => ''],
        lock_rec('b', 'B', 5, 6, 'ok', 50),
    ], 1, 0],
    'in the model: an in-model fault (a kill, a pause) excuses nothing' => [[
        lock_rec('a', 'A', 0, 1, 'ok', 50), ['op' => 'fault', 'kind' => 'kill', 'in_model' => true, 't' => ms(3), 'scope' => ''],
        lock_rec('b', 'B', 5, 30, 'ok', 50),
    ], 1, 0, 0],
];

/* Outside the model: was the stale holder told? Its first call completing after the rival acquired. */
$jump = ['op' => 'fault', 'kind' => 'clock-jump', 'in_model' => false, 't' => ms(3), 'scope' => ''];
$signals = [
    'signalled: the stale holder\'s next extend() fails' => [[lock_rec('a', 'A', 0, 1, 'ok', 50), $jump,
        lock_rec('b', 'B', 5, 30, 'ok', 50), call_rec('extend', 'a', 'A', 32, 33, 'fail'), call_rec('extend', 'a', 'A', 34, 35, 'ok', 50)],
        'signalled'],
    'signalled: onLoss before its next call' => [[lock_rec('a', 'A', 0, 1, 'ok', 50), $jump,
        lock_rec('b', 'B', 5, 30, 'ok', 50), ['w' => 'a', 'op' => 'loss', 'res' => 'r', 't0' => ms(31), 't1' => ms(31), 'out' => 'ok', 'token' => 'A'],
        call_rec('validity', 'a', 'A', 32, 33, 'ok', 5)], 'signalled'],
    'not signalled: its next validity() still promises' => [[lock_rec('a', 'A', 0, 1, 'ok', 50), $jump,
        lock_rec('b', 'B', 5, 30, 'ok', 50), call_rec('extend', 'a', 'A', 2, 3, 'fail'), call_rec('validity', 'a', 'A', 31, 32, 'ok', 10)],
        'not_signalled'],
    'no later call: the stale holder made none' => [[lock_rec('a', 'A', 0, 1, 'ok', 50), $jump,
        lock_rec('b', 'B', 5, 30, 'ok', 50)], 'no_later_call'],
    'signalled: a clock-jump warning (the observer\'s clock_jumps grew) before its next call' => [[lock_rec('a', 'A', 0, 1, 'ok', 50), $jump,
        lock_rec('b', 'B', 5, 30, 'ok', 50), ['w' => 'a', 'op' => 'clock-warning', 't1' => ms(31), 'out' => 'ok', 'jumps' => 1],
        call_rec('validity', 'a', 'A', 32, 33, 'ok', 5)], 'signalled', 1],
];

/* Rule 3 (a semaphore's limit) and rule 4 (fair waiting: starvation and bypass in fault-free stretches): each case
 * with the counts of [over_limit, fair_starved, fair_bypass] it must get. Fair lock records carry fair and
 * wait_timeout (3000 ms here); a semaphore's its limit. */
function fair_rec(string $w, string $tok, float $t0, ?float $t1, string $out, ?float $validity = null, ?int $limit = null, string $res = 'f'): array
{
    return lock_rec($w, $tok, $t0, $t1, $out, $validity, null, $res) + ['fair' => true, 'wait_timeout' => 3000]
        + ($limit !== null ? ['limit' => $limit] : []);
}
function unlock_rec(string $w, string $tok, float $t0, string $res = 'f'): array
{
    return call_rec('unlock', $w, $tok, $t0, $t0 + 1, 'ok', null, $res);
}
$fault = fn (float $t) => ['op' => 'fault', 'kind' => 'pause', 'port' => 1, 't' => ms($t), 'in_model' => true, 'scope' => ''];
$fairCases = [
    'semaphore, limit 2: two holders at once' => [[
        fair_rec('a', 'A', 0, 1, 'ok', 500, 2), fair_rec('b', 'B', 2, 3, 'ok', 500, 2),
        unlock_rec('a', 'A', 50), unlock_rec('b', 'B', 60), fair_rec('c', 'C', 55, 56, 'ok', 500, 2), unlock_rec('c', 'C', 70),
    ], [0, 0, 0]],
    'semaphore, limit 2: a third holder while two are promised' => [[
        fair_rec('a', 'A', 0, 1, 'ok', 500, 2), fair_rec('b', 'B', 2, 3, 'ok', 500, 2), fair_rec('c', 'C', 4, 5, 'ok', 500, 2),
        unlock_rec('a', 'A', 50), unlock_rec('b', 'B', 60), unlock_rec('c', 'C', 70),
    ], [1, 0, 0]],
    'fair: served in arrival order (a waiter invoked 1.1 s after another acquires after it)' => [[
        fair_rec('h', 'H', 0, 1, 'ok', 2000), unlock_rec('h', 'H', 1500),
        fair_rec('w', 'W', 100, 1505, 'ok', 500), unlock_rec('w', 'W', 1508),
        fair_rec('b', 'B', 1200, 1510, 'ok', 500), unlock_rec('b', 'B', 1520),
    ], [0, 0, 0]],
    'fair: a later arrival served first, no fault' => [[
        fair_rec('h', 'H', 0, 1, 'ok', 2000), unlock_rec('h', 'H', 1500),
        fair_rec('b', 'B', 1200, 1505, 'ok', 500), unlock_rec('b', 'B', 1508),
        fair_rec('w', 'W', 100, 1510, 'ok', 500), unlock_rec('w', 'W', 1520),
    ], [0, 0, 1]],
    'fair: the same with a fault during the wait (not judged)' => [[
        fair_rec('h', 'H', 0, 1, 'ok', 2000), $fault(1300), unlock_rec('h', 'H', 1500),
        fair_rec('b', 'B', 1200, 1505, 'ok', 500), unlock_rec('b', 'B', 1508),
        fair_rec('w', 'W', 100, 1510, 'ok', 500), unlock_rec('w', 'W', 1520),
    ], [0, 0, 0]],
    'fair: a waiter invoked less than 1 s after another may be served first (its arrival cannot be told)' => [[
        fair_rec('h', 'H', 0, 1, 'ok', 2000), unlock_rec('h', 'H', 1500),
        fair_rec('b', 'B', 900, 1505, 'ok', 500), unlock_rec('b', 'B', 1508),
        fair_rec('w', 'W', 100, 1510, 'ok', 500), unlock_rec('w', 'W', 1520),
    ], [0, 0, 0]],
    'fair: starved (waitTimeout over behind one hold of 0.2 s, no fault)' => [[
        fair_rec('h', 'H', 0, 1, 'ok', 2000), unlock_rec('h', 'H', 200),
        fair_rec('w', 'W', 100, 3100, 'fail'),
    ], [0, 1, 0]],
    'fair: gave up before its waitTimeout, no fault' => [[
        fair_rec('h', 'H', 0, 1, 'ok', 2000), unlock_rec('h', 'H', 200), fair_rec('w', 'W', 100, 600, 'fail'),
    ], [0, 1, 0]],
    'fair: waitTimeout over behind a hold of 3.5 s (the queue did not fit in it)' => [[
        fair_rec('h', 'H', 0, 1, 'ok', 4000), fair_rec('w', 'W', 100, 3100, 'fail'), unlock_rec('h', 'H', 3500),
    ], [0, 0, 0]],
    'fair: waitTimeout over with a fault during the wait (not judged)' => [[
        fair_rec('h', 'H', 0, 1, 'ok', 2000), unlock_rec('h', 'H', 200), $fault(1000), fair_rec('w', 'W', 100, 3100, 'fail'),
    ], [0, 0, 0]],
];

$failed = 0;
foreach ($fairCases as $name => [$records, $want]) {
    $v = checker_check($records);
    $got = [$v['violations']['over_limit'], $v['violations']['fair_starved'], $v['violations']['fair_bypass']];
    $ok = $got === $want && $v['violations']['overlaps'] === 0 && $v['ok'] === (array_sum($want) === 0);
    $failed += $ok ? 0 : 1;
    printf("%s %s%s\n", $ok ? 'ok  ' : 'FAIL', $name, $ok ? '' : ' (over limit, starved, bypass: got ' . json_encode($got)
        . ', want ' . json_encode($want) . '; overlaps ' . $v['violations']['overlaps'] . ')');
}
foreach ($signals as $name => $signal) {
    [$records, $want] = $signal;
    $o = checker_check($records)['outside_model'];
    $ok = $o['overlaps'] === 1 && $o[$want] === 1 && $o['signalled'] + $o['not_signalled'] + $o['no_later_call'] === 1
        && $o['clock_warned'] === ($signal[2] ?? 0);
    $failed += $ok ? 0 : 1;
    printf("%s %s%s\n", $ok ? 'ok  ' : 'FAIL', $name, $ok ? '' : ' (got ' . json_encode($o) . ')');
}
foreach ($cases as $name => $case) {
    [$records, $overlaps, $fences] = $case;
    $outside = $case[3] ?? 0;
    $v = checker_check($records);
    $got = [$v['violations']['overlaps'], $v['violations']['fence_accepted_below'] + $v['violations']['fence_not_increasing'],
        $v['outside_model']['overlaps']];
    $want = [$overlaps, $fences, $outside];
    $ok = $got === $want && $v['ok'] === ($overlaps + $fences === 0);
    $failed += $ok ? 0 : 1;
    printf("%s %s%s\n", $ok ? 'ok  ' : 'FAIL', $name, $ok ? '' : ' (overlaps, fences, outside: got ' . json_encode($got) . ', want ' . json_encode($want) . ')');
}

/* Files: a directory of histories, a torn last line (a worker SIGKILLed mid-write) skipped, the CLI's exit status. */
$dir = sys_get_temp_dir() . '/checker-test-' . getmypid();
@mkdir($dir);
file_put_contents("$dir/w0.jsonl", json_encode(lock_rec('a', 'A', 0, 1, 'ok', 50)) . "\n" . '{"w":"a","op":"unl');
file_put_contents("$dir/w1.jsonl", json_encode(lock_rec('b', 'B', 5, 30, 'ok', 50)) . "\n");
exec(escapeshellarg(PHP_BINARY) . ' ' . escapeshellarg(__DIR__ . '/checker.php') . ' --quiet ' . escapeshellarg($dir), $out, $status);
$ok = $status === 1 && str_contains(implode("\n", $out), 'CHECKER: VIOLATION (overlaps 1');
$failed += $ok ? 0 : 1;
printf("%s a directory with a torn last line: exit 1, one overlap%s\n", $ok ? 'ok  ' : 'FAIL', $ok ? '' : ' (got ' . $status . ': ' . implode(' ', $out) . ')');
/* The streaming reader needs each file in time order: one out of order stops it (exit 2), never a wrong
 * verdict; --in-memory sorts it and judges. */
file_put_contents("$dir/w1.jsonl", json_encode(lock_rec('b', 'B', 82, 85, 'ok', 50)) . "\n" . json_encode(lock_rec('b', 'C', 5, 30, 'ok', 50)) . "\n");
exec(escapeshellarg(PHP_BINARY) . ' ' . escapeshellarg(__DIR__ . '/checker.php') . ' --quiet ' . escapeshellarg($dir) . ' 2>&1', $out3, $status3);
exec(escapeshellarg(PHP_BINARY) . ' ' . escapeshellarg(__DIR__ . '/checker.php') . ' --quiet --in-memory ' . escapeshellarg($dir), $out4, $status4);
$ok = $status3 === 2 && str_contains(implode("\n", $out3), 'not in time order') && $status4 === 1
    && str_contains(implode("\n", $out4), 'CHECKER: VIOLATION (overlaps 1');
$failed += $ok ? 0 : 1;
printf("%s a file out of time order: streaming exit 2, --in-memory judges it%s\n", $ok ? 'ok  ' : 'FAIL', $ok ? '' : ' (got ' . $status3 . ', ' . $status4 . ')');
unlink("$dir/w1.jsonl");
exec(escapeshellarg(PHP_BINARY) . ' ' . escapeshellarg(__DIR__ . '/checker.php') . ' --quiet ' . escapeshellarg($dir), $out2, $status);
$ok = $status === 0;
$failed += $ok ? 0 : 1;
printf("%s one holder alone: exit 0\n", $ok ? 'ok  ' : 'FAIL');
array_map('unlink', glob("$dir/*") ?: []);
rmdir($dir);

$n = count($cases) + count($signals) + count($fairCases) + 3;
echo $failed === 0 ? "checker test: $n of $n\n" : "checker test: FAIL, $failed of $n\n";
exit($failed === 0 ? 0 : 1);
