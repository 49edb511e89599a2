--TEST--
Clock jumps: two jumps of the same size (+5 s, then +5 s again) on 2 of 3 servers, both seen by the object's connection, one sample apart (the renewal thread, every 10 s, samples neither): the second is a jump of its own, not the first seen again; a lock taken between them loses those servers' votes after the second (validity() false), and each jump is counted (observer: 2 per jumped server, metrics: 4)
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
$records = [];
$servers = [['127.0.0.1', $a['port'], 1.0], ['127.0.0.1', $b['port'], 1.0], ['127.0.0.1', $c['port'], 1.0]];
// tracked locks of 30 s: renewed every 10 s, so within this test only the object's connection samples TIME
$r = new RedLock($servers, 10, 1, ['autoExtend' => true, 'observer' => function (array $call) use (&$records) { $records[] = $call; }]);
$before = RedLock::metrics();
$first = $r->lock(rt_key('first'), 30000);
var_dump($r->validity($first) > 25000);
ck_jump($a, 5000);
ck_jump($b, 5000);
var_dump($r->validity($first)); // the sample that sees the first jump
// taken after the first jump (lock() samples TIME at most once a second: no sample in between)
$second = $r->lock($key = rt_key('second'), 30000);
var_dump($second !== false);
ck_jump($a, 10000);
ck_jump($b, 10000);
echo 'keys left: ', json_encode(array_map(fn ($s) => rt_redis($s['port'], 'PTTL', $key) > 15000, [$a, $b, $c])), "\n";
var_dump($r->validity($second)); // the next sample: a second jump, not the first seen again
foreach (array_slice($r->getLastErrors(), 0, 2) as $i => $e) {
    echo $i, ': ', preg_replace('/\+[45]\d{3} ms/', '+~5000 ms', (string) $e), "\n";
}
$last = end($records);
echo 'observer: ', json_encode(array_column($last['servers'], 'clock_jumps')), "\n";
$after = RedLock::metrics();
echo 'metrics forward: ', $after['clock_jumps_forward'] - $before['clock_jumps_forward'], "\n";
?>
--EXPECT--
bool(true)
bool(false)
bool(true)
keys left: [true,true,true]
bool(false)
0: clock jumped +~5000 ms since the lock was taken: vote not counted
1: clock jumped +~5000 ms since the lock was taken: vote not counted
observer: [2,2,0]
metrics forward: 4
