--TEST--
Observer and counters: per-server errors from refused ports (the vote's error text and its latency, outcome failed when errors leave no quorum), counted per address in metrics()['server_errors'] and as failed, never as contended
--EXTENSIONS--
redlock
--FILE--
<?php
require __DIR__ . '/../inc/redlock_test.inc';
$dead1 = rt_free_port();
$dead2 = rt_free_port();
$s = array_merge(rt_servers(1, 1.0), [['127.0.0.1', $dead1, 0.5], ['127.0.0.1', $dead2, 0.5]]);
$seen = [];
$r = new RedLock($s, 10, 2, ['observer' => function (array $c) use (&$seen) { $seen[] = $c; }]);
$before = RedLock::metrics();
var_dump($r->lock(rt_key(), 5000));
$c = $seen[0];
echo $c['outcome'], ' attempts=', $c['attempts'], "\n";
foreach ($c['servers'] as $i => $v) {
    if ($i === 0 && $v['vote'] === 'no reply needed' && $v['ms'] === null) {
        $v = ['vote' => 'yes', 'ms' => 0.0]; // both refusals came first and decided the call: the same verdict
    }
    echo "#$i ", $v['vote'], ' ', is_float($v['ms']) ? 'ms' : var_export($v['ms'], true), "\n";
}
$after = RedLock::metrics();
foreach (['failed', 'contended', 'acquired'] as $k) {
    echo "$k +", $after[$k] - $before[$k], "\n";
}
foreach ([$dead1, $dead2] as $port) {
    $e = $after['server_errors']["127.0.0.1:$port"] ?? null;
    $b = $before['server_errors']["127.0.0.1:$port"] ?? ['connect' => 0, 'timeout' => 0, 'io' => 0, 'error' => 0];
    echo "127.0.0.1:dead connect +", $e['connect'] - $b['connect'], ' timeout +', $e['timeout'] - $b['timeout'],
        ' io +', $e['io'] - $b['io'], ' error +', $e['error'] - $b['error'], "\n";
}
$live = $s[0][1];
echo 'live server listed: ', var_export(isset($after['server_errors']["127.0.0.1:$live"]) && array_sum($after['server_errors']["127.0.0.1:$live"]) > 0, true), "\n";
// A server error reply (WRONGPASS) is an 'error'.
$w = new RedLock([['host' => '127.0.0.1', 'port' => $live, 'timeout' => 1.0, 'password' => 'wrong-password']], 0, 1);
$b = RedLock::metrics()['server_errors']["127.0.0.1:$live"]['error'] ?? 0;
var_dump($w->lock(rt_key('w'), 1000));
echo 'error +', RedLock::metrics()['server_errors']["127.0.0.1:$live"]['error'] - $b, "\n";
?>
--EXPECTF--
bool(false)
failed attempts=2
#0 yes ms
#1 connect: Connection refused ms
#2 connect: Connection refused ms
failed +1
contended +0
acquired +0
127.0.0.1:dead connect +1 timeout +0 io +0 error +0
127.0.0.1:dead connect +1 timeout +0 io +0 error +0
live server listed: false
bool(false)
error +1
