--TEST--
Revolt: two of three servers silent (SIGSTOP, timeout 0.5 s): the Fiber's lock() waits for them without blocking the loop (a 10 ms repeat timer's gaps stay below 20 ms) and fails after the servers' timeout; the same object works once they answer again
--EXTENSIONS--
redlock
--SKIPIF--
<?php require __DIR__ . '/../inc/revolt.inc'; if ($why = rt_revolt_skip_reason()) die("skip $why"); ?>
--FILE--
<?php
require __DIR__ . '/../inc/revolt.inc';
require __DIR__ . '/../inc/faultproxy.inc';
rt_revolt_load();
use Revolt\EventLoop;

$a = fp_spawn_server();
$b = fp_spawn_server();
$servers = [rt_servers(1, 0.5)[0], ['127.0.0.1', $a['port'], 0.5], ['127.0.0.1', $b['port'], 0.5]];
$r = new RedLock($servers, 200, 1);
$key = rt_key();
rt_signal($a, 'STOP');
rt_signal($b, 'STOP');

$result = [];
$ticker = rt_ticker(function () use ($r, $key, &$ticker, &$result) {
    $t = hrtime(true);
    $result['lock'] = $r->lock($key, 5000);
    $result['ms'] = (hrtime(true) - $t) / 1e6;
    $result['errors'] = array_values(array_filter($r->getLastErrors()));
    $result['gap'] = rt_ticker_stop($ticker);
});
EventLoop::run();
rt_signal($a, 'CONT');
rt_signal($b, 'CONT');

var_dump($result['lock']);
echo 'after the servers\' timeout: ', var_export($result['ms'] >= 490 && $result['ms'] < 1500, true), "\n";
echo count($result['errors']), " servers timed out\n";
echo rt_gap_verdict($result['gap']), "\n";
$lock = $r->lock($key, 5000);
echo 'answering again: ', is_array($lock) ? 'locked' : 'not locked', "\n";
$r->unlock($lock);
?>
--EXPECT--
bool(false)
after the servers' timeout: true
2 servers timed out
gaps below the bound
answering again: locked
