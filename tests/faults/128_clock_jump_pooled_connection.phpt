--TEST--
Clock jumps: a connection handed from one RedLock object to the next by the pool carries no count of the first object's: the first object saw a jump (+5 s) and went away; in the second one, the renewal thread's connection sees the next jump (+60 s more) first, and the pooled connection seeing it too counts it once (observer 1, metrics +1), not as a new jump because the first object had also counted one
--EXTENSIONS--
redlock
--SKIPIF--
<?php if (trim((string) shell_exec('command -v cc')) === '') die('skip no cc for the clock shim'); ?>
--FILE--
<?php
require __DIR__ . '/../inc/clock.inc';
$a = ck_spawn_server();
$b = rt_spawn_server();
$c = rt_spawn_server();
$servers = [['127.0.0.1', $a['port'], 1.0], ['127.0.0.1', $b['port'], 1.0], ['127.0.0.1', $c['port'], 1.0]];
$first = new RedLock($servers, 10, 1);
$lock = $first->lock(rt_key('first'), 30000);
$first->validity($lock);
ck_jump($a, 5000);
// server a's TIME reply may come after validity()'s quorum: the next call reads it (as in faults/126)
rt_eventually(function () use ($first, $lock) {
    $first->validity($lock);
    return $first->getServerWarnings()[0] !== null;
}, 2.0 * rt_time_scale());
$first->unlock($lock);
echo 'first: ', json_encode(array_map(fn ($w) => $w !== null, $first->getServerWarnings())), "\n";
unset($first); // its connections go to the pool
$records = [];
$second = new RedLock($servers, 10, 1, ['autoExtend' => true, 'observer' => function (array $call) use (&$records) { $records[] = $call; }]);
$before = RedLock::metrics();
$lock = $second->lock(rt_key('second'), 3000); // on the pooled connections: their reference samples
var_dump($lock !== false);
// a renewal (every ttl/3) gives the thread's connections their first sample
var_dump(rt_eventually(fn () => RedLock::metrics()['renewals'] > $before['renewals'], 3.0 * rt_time_scale()));
ck_jump($a, 65000);
// the renewal thread's connection sees it first
var_dump(rt_eventually(fn () => RedLock::metrics()['clock_jumps_forward'] > $before['clock_jumps_forward'], 3.0 * rt_time_scale()));
// the pooled connection sees it too; its TIME reply may come after the quorum, read by the next call
$second->validity($lock);
$second->validity($lock);
$last = end($records);
echo 'observer: ', json_encode(array_column($last['servers'], 'clock_jumps')), "\n";
echo 'metrics forward: ', RedLock::metrics()['clock_jumps_forward'] - $before['clock_jumps_forward'], "\n";
?>
--EXPECT--
first: [true,false,false]
bool(true)
bool(true)
bool(true)
observer: [1,0,0]
metrics forward: 1
