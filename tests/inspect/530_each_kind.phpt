--TEST--
inspect() and isLocked() on real servers (issue 26, item 4): a free resource; an exclusive lock (ttl within the lock's validity, the drift taken off as validity() does); two shared readers (holders 2, the later reader's ttl); a semaphore with 2 of 3 slots used (read with its limit; without it the resource key alone is free); a fenced lock (its fence) and, unlocked, the fence stays; nothing acquired by any of it
--EXTENSIONS--
redlock
--FILE--
<?php
require __DIR__ . '/../inc/redlock_test.inc';
// timeouts and time bounds scaled under valgrind (our own CPU work), tight natively
$s = rt_time_scale();
$r = new RedLock(rt_servers(5, 0.5 * min(5.0, $s)), 0, 1);
$show = fn (?array $i) => $i === null ? 'null' : sprintf('held=%s kind=%s holders=%d ttl=%s fence=%s servers>=3:%s',
    var_export($i['held'], true), $i['kind'] ?? 'null', $i['holders'], $i['ttl'] === null ? 'null' : 'float',
    var_export($i['fence'], true), var_export($i['servers'] >= 3, true));

echo "-- free\n";
$key = rt_key('free');
echo $show($r->inspect($key)), "\n";
var_dump($r->isLocked($key));
var_dump(rt_values($key));

echo "-- exclusive\n";
$key = rt_key('ex');
$lock = $r->lock($key, 10000);
$i = $r->inspect($key);
echo $show($i), "\n";
var_dump($i['ttl'] > 10000 - 1000 * $s && $i['ttl'] <= 10000, $r->isLocked($key));
var_dump($r->lock($key, 1000)); // still taken: inspect took nothing, changed nothing
$r->unlock($lock);
var_dump($r->isLocked($key));
$long = $r->lock($key, 100000); // the drift (1% + 2 ms = 1002 ms) is taken off, as validity() does
$i = $r->inspect($key);
var_dump($i['ttl'] > 100000 - 10000 * $s && $i['ttl'] <= 100000 - 1002, $i['ttl'] <= $r->validity($long) + 50 * $s);
$r->unlock($long);

echo "-- shared\n";
$key = rt_key('sh');
$a = $r->lockShared($key, 5000);
$b = $r->lockShared($key, 8000);
$i = $r->inspect($key);
echo $show($i), "\n";
var_dump($i['ttl'] > 8000 - 1000 * $s && $i['ttl'] <= 8000, $r->isLocked($key));

echo "-- semaphore\n";
$key = rt_key('sem');
$x = $r->lockSemaphore($key, 3, 5000);
$y = $r->lockSemaphore($key, 3, 5000);
echo $show($r->inspect($key, 3)), "\n";
echo $show($r->inspect($key)), "\n";
$r->unlock($x);
echo $show($r->inspect($key, 3)), "\n";
$r->unlock($y);
echo $show($r->inspect($key, 3)), "\n";

echo "-- fenced\n";
$key = rt_key('fe');
$f = new RedLock(rt_servers(5, 0.5 * min(5.0, $s)), 0, 1, ['fencing' => true]);
$one = $f->lock($key, 5000);
$f->unlock($one);
$two = $f->lock($key, 5000);
$i = $r->inspect($key);
echo $show($i), "\n";
var_dump($i['fence'] === $two['fence'], $two['fence'] > $one['fence']);
$f->unlock($two);
$i = $r->inspect($key);
echo $show($i), "\n";
var_dump($i['fence'] === $two['fence']);
?>
--EXPECT--
-- free
held=false kind=null holders=0 ttl=null fence=NULL servers>=3:true
bool(false)
array(5) {
  [0]=>
  NULL
  [1]=>
  NULL
  [2]=>
  NULL
  [3]=>
  NULL
  [4]=>
  NULL
}
-- exclusive
held=true kind=exclusive holders=1 ttl=float fence=NULL servers>=3:true
bool(true)
bool(true)
bool(false)
bool(false)
bool(true)
bool(true)
-- shared
held=true kind=shared holders=2 ttl=float fence=NULL servers>=3:true
bool(true)
bool(true)
-- semaphore
held=true kind=semaphore holders=2 ttl=null fence=NULL servers>=3:true
held=false kind=null holders=0 ttl=null fence=NULL servers>=3:true
held=true kind=semaphore holders=1 ttl=null fence=NULL servers>=3:true
held=false kind=null holders=0 ttl=null fence=NULL servers>=3:true
-- fenced
held=true kind=exclusive holders=1 ttl=float fence=2 servers>=3:true
bool(true)
bool(true)
held=false kind=null holders=0 ttl=null fence=2 servers>=3:true
bool(true)
