--TEST--
RedLock::metrics(): the counters move by exactly what the calls did (acquired, contended, released, extended, wait histogram: cumulative buckets, +Inf = count, sum); the same figures in phpinfo()
--EXTENSIONS--
redlock
--FILE--
<?php
require __DIR__ . '/../inc/redlock_test.inc';
$s = rt_servers(5, 1.0);
$key = rt_key();
$m0 = RedLock::metrics();
echo implode(',', array_keys($m0)), "\n";
echo implode(',', array_keys($m0['wait_ms'])), ' / ', implode(',', array_keys($m0['wait_ms']['buckets'])), "\n";
$r = new RedLock($s, 10, 2);
$other = new RedLock($s, 10, 1);
for ($i = 0; $i < 3; $i++) {
    $l = $r->lock("$key:$i", 5000);
    $l = $r->extend($l, 5000);
    $r->unlock($l);
}
$held = $other->lock("$key:held", 5000);
var_dump($r->lock("$key:held", 5000)); // 2 attempts, contended
$sem = $r->lockSemaphore("$key:sem", 1, 5000);
var_dump($other->lockSemaphore("$key:sem", 1, 5000)); // contended
$r->unlock($sem);
$other->unlock($held);
$m1 = RedLock::metrics();
foreach (['acquired', 'contended', 'failed', 'released', 'extended', 'lost', 'renewals', 'observer_errors'] as $k) {
    echo "$k +", $m1[$k] - $m0[$k], "\n";
}
$w0 = $m0['wait_ms'];
$w1 = $m1['wait_ms'];
echo 'waits +', $w1['count'] - $w0['count'], "\n";
echo '+Inf equals count: ', var_export($w1['buckets']['+Inf'] === $w1['count'], true), "\n";
$prev = 0;
$monotone = true;
foreach ($w1['buckets'] as $le => $n) {
    $monotone = $monotone && $n >= $prev;
    $prev = $n;
}
echo 'cumulative: ', var_export($monotone, true), "\n";
echo 'sum grew: ', var_export($w1['sum'] > $w0['sum'], true), "\n";
// The contended lock() waited its retry pause (5..10 ms): at least one new wait above 1 ms.
echo 'a wait above 1 ms: ', var_export(($w1['count'] - $w1['buckets'][1]) > ($w0['count'] - $w0['buckets'][1]), true), "\n";
ob_start();
phpinfo(INFO_MODULES);
$info = ob_get_clean();
$m2 = RedLock::metrics();
foreach (['acquired', 'released', 'contended'] as $k) {
    echo "phpinfo locks $k: ", preg_match("/locks $k => (\d+)/", $info, $m) && (int) $m[1] === $m2[$k] ? 'matches' : 'MISSING OR DIFFERENT', "\n";
}
echo 'phpinfo lock waits: ', preg_match('/lock waits => (\d+) \(/', $info, $m) && (int) $m[1] === $m2['wait_ms']['count'] ? 'matches' : 'MISSING', "\n";
?>
--EXPECT--
acquired,contended,failed,released,extended,lost,renewals,observer_errors,on_loss_errors,clock_jumps_forward,clock_jumps_backward,wait_ms,server_errors,server_policies
buckets,sum,count / 1,5,10,25,50,100,250,500,1000,2500,5000,10000,+Inf
bool(false)
bool(false)
acquired +5
contended +2
failed +0
released +5
extended +3
lost +0
renewals +0
observer_errors +0
waits +7
+Inf equals count: true
cumulative: true
sum grew: true
a wait above 1 ms: true
phpinfo locks acquired: matches
phpinfo locks released: matches
phpinfo locks contended: matches
phpinfo lock waits: matches
