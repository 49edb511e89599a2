--TEST--
Clock jumps: a backward jump (-5 s on one server) is reported ("clock jumped -5000 ms (backward ...)", counted as backward) and votes stay as they were (validity() true), reported by the call that reads server a's TIME reply (the next one when a answered after the quorum); a step of +20 ms (an NTP correction: inside the allowance of 50 ms plus 1 % drift) and 60 calls with their round trips on a loaded machine give no warning
--EXTENSIONS--
redlock
--SKIPIF--
<?php if (trim((string) shell_exec('command -v cc')) === '') die('skip no cc for the clock shim'); ?>
--FILE--
<?php
require __DIR__ . '/../inc/clock.inc';
$a = ck_spawn_server();
$b = ck_spawn_server();
$c = rt_spawn_server();
$before = RedLock::metrics();
$r = new RedLock([['127.0.0.1', $a['port'], 1.0], ['127.0.0.1', $b['port'], 1.0], ['127.0.0.1', $c['port'], 1.0]], 10, 1,
    ['autoExtend' => true]);
$lock = $r->lock(rt_key(), 30000);
// ordinary calls, each sampling every server's clock: no warning without a jump
for ($i = 0, $any = 0; $i < 60; $i++) {
    $any += $r->validity($lock) > 0 ? 0 : 1;
    $any += count(array_filter($r->getServerWarnings()));
    usleep(2000);
}
echo 'without a jump: ', $any, " warnings or losses\n";
ck_jump($b, 20);
var_dump($r->validity($lock) > 25000, $r->getServerWarnings()[1]);
ck_jump($a, -5000);
var_dump($r->validity($lock) > 25000);
// validity() returns once a quorum answered: when server a answers after it, its TIME reply (the sample that
// shows the jump) is read at the start of the next call on that connection
var_dump(rt_eventually(fn () => $r->validity($lock) > 25000 && $r->getServerWarnings()[0] !== null, 2.0 * rt_time_scale()));
foreach ($r->getServerWarnings() as $i => $w) {
    echo $i, ': ', $w === null ? 'null' : preg_replace('/-[45]\d{3} ms/', '-~5000 ms', $w), "\n";
}
$after = RedLock::metrics();
echo 'metrics forward: ', $after['clock_jumps_forward'] - $before['clock_jumps_forward'], ', backward: ', $after['clock_jumps_backward'] - $before['clock_jumps_backward'], "\n";
var_dump($r->unlock($lock));
?>
--EXPECT--
without a jump: 0 warnings or losses
bool(true)
NULL
bool(true)
bool(true)
0: clock jumped -~5000 ms (backward: its keys outlive their ttl; votes unchanged)
1: null
2: null
metrics forward: 0, backward: 1
bool(true)
