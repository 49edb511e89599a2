--TEST--
Revolt: two of three servers silent (SIGSTOP, timeout 0.5 s): the Fiber's lock() waits for them without blocking the loop (a 10 ms repeat timer's gaps stay below 20 ms) and fails after the servers' timeout; the same object works once they answer again. A host name lookup of 1.5 s that the quorum needs (a child php with the slow resolver) suspends the Fiber too
--EXTENSIONS--
redlock
--SKIPIF--
<?php require __DIR__ . '/../inc/revolt.inc'; if ($why = rt_revolt_skip_reason()) die("skip $why"); ?>
--FILE--
<?php
require __DIR__ . '/../inc/revolt.inc';
require __DIR__ . '/../inc/faultproxy.inc';
require __DIR__ . '/../inc/slow_resolver.inc';
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

// A lookup the quorum needs: one of the other two servers refuses, so the slow-named one must vote.
$out = sr_run(<<<'PHP'
require $args['inc'];
rt_revolt_load();
$r = new RedLock([[$args['name'], $args['port'], 3.0], ['127.0.0.1', $args['refusing'], 0.5], ['127.0.0.1', $args['port2'], 0.5]], 200, 1);
$result = [];
$ticker = rt_ticker(function () use ($r, $args, &$ticker, &$result) {
    $t = hrtime(true);
    $lock = $r->lock($args['key'], 5000);
    $result['locked'] = is_array($lock);
    $result['after the lookup'] = (hrtime(true) - $t) / 1e6 >= 1400;
    $result['gap'] = rt_ticker_stop($ticker);
    $r->unlock($lock);
});
Revolt\EventLoop::run();
echo json_encode(['locked' => $result['locked'], 'after the lookup' => $result['after the lookup'], 'verdict' => rt_gap_verdict($result['gap'])]);
PHP, ['inc' => realpath(__DIR__ . '/../inc/revolt.inc'), 'name' => 'ms1500-redis.slow.test', 'port' => $a['port'],
    'port2' => $b['port'], 'refusing' => fp_free_port(), 'key' => rt_key('lookup'), 'log' => sr_log()]);
$child = json_decode($out, true) ?? rt_fatal("the child printed: $out");
echo 'behind a 1.5 s lookup: ', $child['locked'] ? 'locked' : 'not locked', ', after it: ', var_export($child['after the lookup'], true),
    ', ', $child['verdict'], "\n";
?>
--EXPECT--
bool(false)
after the servers' timeout: true
2 servers timed out
gaps below the bound
answering again: locked
behind a 1.5 s lookup: locked, after it: true, gaps below the bound
