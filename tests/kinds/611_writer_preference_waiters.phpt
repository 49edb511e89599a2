--TEST--
Writer preference (2/2): readers already in keep their hold (validity, extend) while a writer waits, and the writer gets in as the last one leaves; two promotions waiting for each other: one gives up at once; a SIGKILLed waiting writer stops keeping readers out within retryDelay + 500 ms; a writer giving up wakes the readers it kept waiting; without scripts no mark is left (and lockShared() is refused)
--EXTENSIONS--
redlock
pcntl
posix
--FILE--
<?php
require __DIR__ . '/../inc/redlock_test.inc';
$servers = rt_servers(5, 1.0);
$scale = rt_time_scale();

function marked(string $key): int
{
    return count(array_filter(rt_ports(), fn ($p) => rt_redis($p, 'ZCARD', "$key:writers") > 0));
}

echo "a reader already in keeps its hold (validity, extend) while a writer waits; the writer gets in as it leaves\n";
$key = rt_key('wp');
$a = new RedLock($servers, 10, 1);
$ra = $a->lockShared($key, 30000);
$pid = pcntl_fork();
if ($pid === 0) {
    $w = new RedLock(rt_servers(5, 1.0), 200, 0, ['waitTimeout' => (int) (6000 * rt_time_scale())]);
    $l = $w->lock($key, 1000);
    exit(is_array($l) ? 0 : 1);
}
var_dump(rt_eventually(fn () => marked($key) >= 3, 3.0 * $scale));
var_dump((new RedLock($servers, 10, 1))->lockShared($key, 1000));
var_dump($a->validity($ra) > 0, $a->extend($ra, 40000) > 30000, $a->validity($ra) > 30000);
var_dump($a->unlock($ra));
[, $ms] = rt_timed(function () use ($pid, &$status) { pcntl_waitpid($pid, $status); });
var_dump(pcntl_wexitstatus($status), $ms < 1000 * $scale);

echo "two promotions waiting for each other: one gives up at once, the other gets in once its reader leaves\n";
$key = rt_key('wp');
$a = new RedLock($servers, 100, 0, ['waitTimeout' => 4000]);
$ra = $a->lockShared($key, 8000);
$pid = pcntl_fork();
if ($pid === 0) {
    $b = new RedLock(rt_servers(5, 1.0), 100, 0, ['waitTimeout' => 4000]);
    $rb = $b->lockShared($key, 8000);
    [$pb, $ms] = rt_timed(fn () => $b->promote($rb, 2000));
    if (is_array($pb)) {
        $b->unlock($pb);
        exit(20);
    }
    $b->unlock($rb);
    exit($ms < 1500 * rt_time_scale() ? 10 : 11);
}
/* the other reader is in, and its promotion waits (its mark) */
rt_eventually(fn () => marked($key) >= 3, 3.0 * $scale);
[$pa, $ms] = rt_timed(fn () => $a->promote($ra, 2000));
if (is_array($pa)) {
    $a->unlock($pa);
    $mine = 20;
} else {
    $a->unlock($ra);
    $mine = $ms < 1500 * $scale ? 10 : 11;
}
pcntl_waitpid($pid, $status);
$outcomes = [$mine, pcntl_wexitstatus($status)];
sort($outcomes);
var_dump($outcomes);

echo "a waiting writer SIGKILLed: readers are back within retryDelay + 500 ms\n";
$key = rt_key('wp');
$a = new RedLock($servers, 10, 1);
$ra = $a->lockShared($key, 30000);
$pid = pcntl_fork();
if ($pid === 0) {
    $w = new RedLock(rt_servers(5, 1.0), 200, 0, ['waitTimeout' => 20000]);
    $w->lock($key, 1000);
    exit(0);
}
var_dump(rt_eventually(fn () => marked($key) >= 3, 3.0 * $scale));
var_dump((new RedLock($servers, 10, 1))->lockShared($key, 1000));
posix_kill($pid, SIGKILL);
pcntl_waitpid($pid, $status);
$r = new RedLock($servers, 50, 0, ['waitTimeout' => 5000]);
[$rc, $ms] = rt_timed(fn () => $r->lockShared($key, 1000));
var_dump(is_array($rc), $ms < 1000 * $scale);
var_dump($a->validity($ra) > 0); /* the reader in all along kept its hold */
if (is_array($rc)) {
    $r->unlock($rc);
}
$a->unlock($ra);

echo "a writer that gives up wakes the readers it kept waiting\n";
$key = rt_key('wp');
$a = new RedLock($servers, 10, 1);
$ra = $a->lockShared($key, 10000);
$pid = pcntl_fork();
if ($pid === 0) {
    $w = new RedLock(rt_servers(5, 1.0), 200, 0, ['waitTimeout' => 1000]);
    exit($w->lock($key, 1000) === false ? 0 : 1);
}
var_dump(rt_eventually(fn () => marked($key) >= 3, 3.0 * $scale));
/* its backoff (30 to 60 s) is longer than its wait: only a message wakes it */
$r = new RedLock($servers, 60000, 0, ['waitTimeout' => 5000]);
[$rc, $ms] = rt_timed(fn () => $r->lockShared($key, 1000));
pcntl_waitpid($pid, $status);
var_dump(pcntl_wexitstatus($status), is_array($rc), $ms < 2500 * $scale);
if (is_array($rc)) {
    $r->unlock($rc);
}
$a->unlock($ra);

echo "a lock() with retries that gives up takes its mark back with its last rollback\n";
$key = rt_key('wp');
$a = new RedLock($servers, 10, 1);
$ra = $a->lockShared($key, 10000);
$w = new RedLock($servers, 100, 3);
var_dump($w->lock($key, 1000));
/* its first two rollbacks marked (for retryDelay + 500 ms), its last took the mark back */
var_dump(rt_eventually(fn () => marked($key) === 0, 0.3 * $scale), is_array($rb = $a->lockShared($key, 1000)));
$a->unlock($rb);
$a->unlock($ra);

echo "without scripts: no mark is left, the reader still enters; lockShared() is refused\n";
$key = rt_key('wp');
$a = new RedLock($servers, 10, 1);
$ra = $a->lockShared($key, 5000);
$n = new RedLock($servers, 50, 3, ['scripts' => false]);
var_dump($n->lock($key, 1000), marked($key), is_array($rb = $a->lockShared($key, 1000)));
echo explode(':', rt_throws(fn () => $n->lockShared($key, 1000)))[0], "\n";
if (is_array($rb)) {
    $a->unlock($rb);
}
$a->unlock($ra);
?>
--EXPECT--
a reader already in keeps its hold (validity, extend) while a writer waits; the writer gets in as it leaves
bool(true)
bool(false)
bool(true)
bool(true)
bool(true)
bool(true)
int(0)
bool(true)
two promotions waiting for each other: one gives up at once, the other gets in once its reader leaves
array(2) {
  [0]=>
  int(10)
  [1]=>
  int(20)
}
a waiting writer SIGKILLed: readers are back within retryDelay + 500 ms
bool(true)
bool(false)
bool(true)
bool(true)
bool(true)
a writer that gives up wakes the readers it kept waiting
bool(true)
int(0)
bool(true)
bool(true)
a lock() with retries that gives up takes its mark back with its last rollback
bool(false)
bool(true)
bool(true)
without scripts: no mark is left, the reader still enters; lockShared() is refused
bool(false)
int(0)
bool(true)
RedLockException
