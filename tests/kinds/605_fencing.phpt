--TEST--
Fencing: every lock() array carries a fence strictly above every earlier holder's, written back to a quorum where our key holds; never written where we do not hold; over the 32 pre-held subsets; lists; run(); planted counters (10,1,1,1,1)
--EXTENSIONS--
redlock
--FILE--
<?php
require __DIR__ . '/../inc/redlock_test.inc';
$ports = rt_ports();
$f = new RedLock(rt_servers(5, 2.0), 10, 1, ['fencing' => true]);
$plain = new RedLock(rt_servers(5, 2.0), 10, 1);
$failures = 0;

function counters(string $key): array
{
    return array_map(fn ($v) => $v === null ? 0 : (int) $v, rt_values("$key:fence"));
}

echo "without the option no fence, and no counter\n";
$key = rt_key('plain');
$l = $plain->lock($key, 10000);
var_dump(array_key_exists('fence', $l), counters($key));
$plain->unlock($l);

echo "successive holders: strictly increasing, each written back to >= 3 servers before it is handed out\n";
$key = rt_key('seq');
$last = 0;
for ($i = 0; $i < 20; $i++) {
    $l = $f->lock($key, 10000);
    $atLeast = count(array_filter(counters($key), fn ($c) => $c >= $l['fence']));
    if (!is_int($l['fence']) || $l['fence'] <= $last || $atLeast < 3) {
        echo "holder $i: fence ", var_export($l['fence'], true), " after $last, counters ", json_encode(counters($key)), "\n";
        $failures++;
    }
    $last = $l['fence'];
    $e = $f->extend($l, 10000);
    if ($e['fence'] !== $l['fence']) {
        echo "extend lost the fence\n";
    }
    $f->unlock($l);
}
echo "last fence $last\n";

echo "planted counters (10,1,1,1,1): whatever the first fence, every later one is above it\n";
$key = rt_key('planted');
foreach ([10, 1, 1, 1, 1] as $i => $c) {
    rt_redis($ports[$i], 'SET', "$key:fence", (string) $c);
}
$first = $f->lock($key, 10000);
var_dump($first['fence'] === 2 || $first['fence'] === 11);
$f->unlock($first);
$prev = $first['fence'];
for ($i = 0; $i < 10; $i++) {
    $l = $f->lock($key, 10000);
    if ($l['fence'] <= $prev) {
        echo "fence {$l['fence']} after $prev\n";
        $failures++;
    }
    $prev = $l['fence'];
    $f->unlock($l);
}

echo "no write-back where our key does not hold: counters (1,10,10,10,10), server 0 held by a foreigner\n";
$key = rt_key('nowb');
foreach ([1, 10, 10, 10, 10] as $i => $c) {
    rt_redis($ports[$i], 'SET', "$key:fence", (string) $c);
}
rt_redis($ports[0], 'SET', $key, 'foreign', 'PX', '60000');
$l = $f->lock($key, 10000);
var_dump($l['fence']);
usleep(50000);
var_dump(counters($key)[0]);
$f->unlock($l);

echo "32 subsets pre-held by a foreigner: a fence iff <= 2 held, above the one before; held servers' counters untouched\n";
$key = rt_key('subsets');
$prev = 0;
$won = 0;
for ($mask = 0; $mask < 32; $mask++) {
    $in = array_values(array_filter(range(0, 4), fn ($i) => ($mask & (1 << $i)) !== 0));
    $before = counters($key);
    foreach ($in as $i) {
        rt_redis($ports[$i], 'SET', $key, 'foreign', 'PX', '60000');
    }
    $l = $f->lock($key, 10000);
    if (is_array($l) !== (count($in) <= 2)) {
        echo "mask $mask: ", var_export($l, true), "\n";
        $failures++;
    }
    usleep(20000);
    foreach ($in as $i) {
        if (counters($key)[$i] !== $before[$i]) {
            echo "mask $mask: server $i counter moved\n";
            $failures++;
        }
    }
    if ($l) {
        $won++;
        if ($l['fence'] <= $prev) {
            echo "mask $mask: fence {$l['fence']} after $prev\n";
            $failures++;
        }
        $prev = $l['fence'];
        $f->unlock($l);
    }
    rt_del($key);
}
echo "won $won\n";

echo "a list of resources: one fence above every earlier fence of any of them\n";
$a = rt_key('la');
$b = rt_key('lb');
for ($i = 0; $i < 5; $i++) {
    $la = $f->lock($a, 10000);
    $f->unlock($la);
}
$both = $f->lock([$a, $b], 10000);
var_dump($both['fence'] > $la['fence'], $both['resource'] === [$a, $b]);
$f->unlock($both);
$lb = $f->lock($b, 10000);
var_dump($lb['fence'] > $both['fence']);
$f->unlock($lb);

echo "run() hands the fence to the callback\n";
var_dump($f->run($b, 10000, fn ($lock) => $lock['fence'] > $lb['fence']));

echo "a counter that is not a number: an error vote on those servers, never an exception\n";
$key = rt_key('nan');
foreach ([0, 1, 2] as $i) {
    rt_redis($ports[$i], 'SET', "$key:fence", 'not a number');
}
var_dump($f->lock($key, 10000));
var_dump(count(array_filter($f->getLastErrors(), fn ($e) => is_string($e) && str_contains($e, 'ERR'))) >= 1);
var_dump(rt_eventually(fn () => rt_values($key) === array_fill(0, 5, null), 10.0));
echo "failures $failures\n";
?>
--EXPECT--
without the option no fence, and no counter
bool(false)
array(5) {
  [0]=>
  int(0)
  [1]=>
  int(0)
  [2]=>
  int(0)
  [3]=>
  int(0)
  [4]=>
  int(0)
}
successive holders: strictly increasing, each written back to >= 3 servers before it is handed out
last fence 20
planted counters (10,1,1,1,1): whatever the first fence, every later one is above it
bool(true)
no write-back where our key does not hold: counters (1,10,10,10,10), server 0 held by a foreigner
int(11)
int(1)
32 subsets pre-held by a foreigner: a fence iff <= 2 held, above the one before; held servers' counters untouched
won 16
a list of resources: one fence above every earlier fence of any of them
bool(true)
bool(true)
bool(true)
run() hands the fence to the callback
bool(true)
a counter that is not a number: an error vote on those servers, never an exception
bool(false)
bool(true)
bool(true)
failures 0
