--TEST--
RedLock::fromCluster() with waitTimeout: a release wakes the waiter (its subscription names the channel its member's tagged key is released on), so a waiter whose backoff is 30-60 s gets the lock released 0.15 s after it began waiting, within its waitTimeout
--EXTENSIONS--
redlock
pcntl
--SKIPIF--
<?php require __DIR__ . '/../inc/cluster.inc'; echo cl_skip_reason();
--FILE--
<?php
require __DIR__ . '/../inc/cluster.inc';
$scale = rt_time_scale();
$seeds = getenv('REDLOCK_TEST_CLUSTER') . '?timeout=' . min(60.0, 2.0 * $scale);
$res = rt_key('woken');
$holder = RedLock::fromCluster($seeds, 20, 1);
$h = $holder->lock($res, 30000);
var_dump(is_array($h));
$pid = pcntl_fork();
if ($pid === 0) {
    usleep((int) (150000 * $scale));
    $holder->unlock($h);
    exit(0);
}
// backoff 30-60 s: without a wake-up the only attempt after the first is cut at waitTimeout
$waiter = RedLock::fromCluster($seeds, 60000, 1, ['waitTimeout' => (int) (3000 * $scale)]);
$w = $waiter->lock($res, 5000);
pcntl_waitpid($pid, $status);
echo 'woken and got the lock: ', $w ? 'yes' : 'no ' . json_encode($waiter->getLastErrors()), "\n";
$w && $waiter->unlock($w);
?>
--EXPECT--
bool(true)
woken and got the lock: yes
