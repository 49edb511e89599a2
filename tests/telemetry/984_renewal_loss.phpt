--TEST--
autoExtend telemetry: renewals made by the background thread are counted (metrics()['renewals']) and reported at the next call on the PHP thread ('renewals' of its array); a loss seen by the thread (keys taken by another owner) is counted once ('lost') and reported once; bounded in time
--EXTENSIONS--
redlock
--FILE--
<?php
require __DIR__ . '/../inc/redlock_test.inc';
$s = rt_servers(5, 1.0);
$key = rt_key();
$seen = [];
$r = new RedLock($s, 10, 1, ['autoExtend' => true, 'observer' => function (array $c) use (&$seen) { $seen[] = $c; }]);
$m0 = RedLock::metrics();
/* The ttl (renewed every third of it) and the waits after it scale with the machine's load per core
 * (rt_load_scale(): 1 on a machine no busier than its cores): a renewal thread late by two thirds of a 300 ms
 * ttl loses the lock before rt_take() below, and 'lost 0' is then read as 'lost 1'. */
$scale = rt_load_scale();
$lock = $r->lock($key, (int) (300 * $scale)); // renewed every 100 ms x $scale
echo 'at lock: renewals ', $seen[0]['renewals'], ' lost ', $seen[0]['lost'], "\n";
// Wait (bounded: 3 s x $scale) until the thread has renewed at least twice.
var_dump(rt_eventually(fn () => RedLock::metrics()['renewals'] - $m0['renewals'] >= 2, 3.0 * $scale));
$r->validity($lock);
$c = end($seen);
echo 'validity() reports renewals >= 2: ', var_export($c['renewals'] >= 2, true), ', lost ', $c['lost'], "\n";
// Another owner takes the keys: the next renewal (within 100 ms) finds them taken.
rt_take($key);
var_dump(rt_eventually(fn () => RedLock::metrics()['lost'] - $m0['lost'] === 1, 3.0 * $scale));
usleep((int) (250000 * $scale)); // most of a ttl: nothing is counted twice
$r->validity($lock);
$c = end($seen);
echo 'next call: outcome ', $c['outcome'], ', lost ', $c['lost'], "\n";
$r->validity($lock);
$c = end($seen);
echo 'the call after: lost ', $c['lost'], ', renewals ', $c['renewals'], "\n";
echo 'metrics lost +', RedLock::metrics()['lost'] - $m0['lost'], "\n";
$r->unlock($lock);
echo 'after unlock: lost +', RedLock::metrics()['lost'] - $m0['lost'], "\n";
// run() with a ttl that runs out (no autoExtend) counts a loss too, reported at its release.
$seen = [];
$p = new RedLock($s, 10, 1, ['observer' => function (array $c) use (&$seen) { $seen[] = $c; }]);
echo rt_throws(fn () => $p->run("$key:run", 50, fn () => usleep(120000))), "\n";
$c = end($seen);
echo "run's release: {$c['outcome']}, lost {$c['lost']}\n";
echo 'metrics lost +', RedLock::metrics()['lost'] - $m0['lost'], "\n";
?>
--EXPECTF--
at lock: renewals 0 lost 0
bool(true)
validity() reports renewals >= 2: true, lost 0
bool(true)
next call: outcome lost, lost 1
the call after: lost 0, renewals 0
metrics lost +1
after unlock: lost +1
RedLockException: The lock on "%s" was lost during the work: its validity ran out (no autoExtend)
run's release: not_held, lost 1
metrics lost +2
