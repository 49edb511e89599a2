--TEST--
Clock jumps: a server's wall clock moved +60 s (the clock shim) on 2 of 3 servers while an autoExtend lock is held: the renewal's TIME samples see it, those servers' votes for the lock no longer count, onLoss is told, validity() is false; getServerWarnings() names both servers and the jump, the observer's per-server entry and metrics() count it (once per jump, though the object's and the renewal thread's connections both see it); the third server has no warning
--EXTENSIONS--
redlock
--SKIPIF--
<?php if (!is_executable('/usr/bin/cc') && trim((string) shell_exec('command -v cc')) === '') die('skip no cc for the clock shim'); ?>
--FILE--
<?php
require __DIR__ . '/../inc/clock.inc';
$a = ck_spawn_server();
$b = ck_spawn_server();
$c = rt_spawn_server();
$lost = [];
$records = [];
$before = RedLock::metrics();
$r = new RedLock([['127.0.0.1', $a['port'], 1.0], ['127.0.0.1', $b['port'], 1.0], ['127.0.0.1', $c['port'], 1.0]], 10, 1, [
    'autoExtend' => true,
    'onLoss' => function (array $lock, string $reason) use (&$lost) { $lost[] = $reason; },
    'observer' => function (array $call) use (&$records) { $records[] = $call; },
]);
$lock = $r->lock(rt_key(), 3000);
var_dump($lock !== false, $r->getServerWarnings());
// a renewal (every ttl/3) gives the thread's connections their first sample
var_dump(rt_eventually(fn () => RedLock::metrics()['renewals'] > $before['renewals'], 3.0 * rt_time_scale()));
ck_jump($a, 60000);
ck_jump($b, 60000);
// plain PHP code runs until onLoss is told (the next renewal, within a second)
$until = microtime(true) + 3.0 * rt_time_scale();
while (!$lost && microtime(true) < $until) {
    usleep(1000);
}
// renewal_failed (the renewal's votes voided, or its keys gone), or expired when a slow renewal came too late
echo 'onLoss: ', count($lost), ' ', $lost && in_array($lost[0], ['renewal_failed', 'expired'], true) ? 'lost' : json_encode($lost), "\n";
$warnings = $r->getServerWarnings();
foreach ($warnings as $i => $w) {
    echo $i, ': ', $w === null ? 'null' : preg_replace('/\+(59|6\d)\d{3} ms/', '+~60000 ms', $w), "\n";
}
var_dump($r->validity($lock));
// a lock taken after the jump: the votes of the jumped servers count for it
$again = $r->lock(rt_key('after'), 3000);
$last = end($records);
echo 'after the jump: ', $again !== false ? 'taken' : 'not taken', "\n";
echo 'observer: ', json_encode(array_column($last['servers'], 'clock_jumps')), ' ', preg_replace('/\+(59|6\d)\d{3} ms/', '+~60000 ms', (string) $last['servers'][0]['warning']), "\n";
$r->unlock($again);
$after = RedLock::metrics();
echo 'metrics forward: ', $after['clock_jumps_forward'] - $before['clock_jumps_forward'], ', backward: ', $after['clock_jumps_backward'] - $before['clock_jumps_backward'], "\n";
?>
--EXPECT--
bool(true)
array(3) {
  [0]=>
  NULL
  [1]=>
  NULL
  [2]=>
  NULL
}
bool(true)
onLoss: 1 lost
0: clock jumped +~60000 ms: its votes for locks taken before the jump do not count
1: clock jumped +~60000 ms: its votes for locks taken before the jump do not count
2: null
bool(false)
after the jump: taken
observer: [1,1,0] clock jumped +~60000 ms: its votes for locks taken before the jump do not count
metrics forward: 2, backward: 0
