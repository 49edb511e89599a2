--TEST--
validity() and extend() with a paused server: answered by the others without waiting for it; with two paused, bounded by the timeout; a quorum that waited for a resumed server subtracts the wait
--EXTENSIONS--
redlock
pcntl
posix
--FILE--
<?php
require __DIR__ . '/../inc/redlock_test.inc';
$servers = [rt_spawn_server(), rt_spawn_server(), rt_spawn_server()];
/* The servers' timeout and the bounds below it scale together with the machine's load per core (rt_load_scale():
 * 1 on a machine no busier than its cores): a call that waits for the paused server's timeout still takes longer
 * than every bound that says it did not, while two round trips on a loaded machine get more than 800 ms. */
$scale = rt_load_scale();
$list = array_map(fn ($s) => ['127.0.0.1', $s['port'], 1.0 * $scale], $servers);
$key = rt_key();
$r = new RedLock($list, 10, 1);
$lock = $r->lock($key, 10000);
var_dump(is_array($lock));
rt_signal($servers[2], 'STOP');

// extend() is decided by the two live servers at once.
$start = hrtime(true);
[$extended, $ms] = rt_timed(fn () => $r->extend($lock, 20000));
var_dump(is_array($extended), $ms < 800 * $scale); // not waiting for the paused server's 1 s timeout
// validity() does not wait for the paused one either: a quorum of answers decides.
$left = $r->validity($lock);
$ms = (hrtime(true) - $start) / 1e6;
var_dump($left > 15000, $ms < 800 * $scale, $ms < 3000 * $scale);
// Two of three paused: no majority can be known.
rt_signal($servers[1], 'STOP');
[$left, $ms] = rt_timed(fn () => $r->validity($lock));
var_dump($left, $ms < 3000 * $scale);
// A quorum that needs a server resumed 300 ms later: validity() counts that wait, on top of the
// keys' own ageing during it, so it is below what the keys had left, less the drift, by 600 ms, not 300.
$before = rt_redis($servers[0]['port'], 'PTTL', $key);
$drift = 0.01 * $before + 2;
// Resumed by a forked child 300 ms after the call's first command reached servers[0] (the child watches
// its command counts): timed from the fork instead, a parent descheduled on a loaded machine began its call
// late and waited less (stop 41's CI rehearsal under valgrind: 'waited' false). A shell from exec() would
// run under valgrind too with run-tests.php -m (see basics/025).
$commands = function (int $port): int {
    preg_match_all('/^cmdstat_(\w+):calls=(\d+)/m', (string) rt_redis($port, 'INFO', 'commandstats'), $m, PREG_SET_ORDER);
    return array_sum(array_map(fn ($c) => $c[1] === 'info' ? 0 : (int) $c[2], $m));
};
$seen = $commands($servers[0]['port']);
if (($child = pcntl_fork()) === 0) {
    for ($until = microtime(true) + 10; $commands($servers[0]['port']) === $seen && microtime(true) < $until;) {
        usleep(2000);
    }
    usleep(300000);
    posix_kill((int) $servers[1]['pid'], SIGCONT);
    posix_kill(posix_getpid(), SIGKILL); // no shutdown: nothing of the parent's is touched
}
$child > 0 || rt_fatal('fork failed');
[$left, $ms] = rt_timed(fn () => $r->validity($lock));
pcntl_waitpid($child, $status);
echo 'waited for the resumed server: ', var_export($ms >= 290, true), ', the wait subtracted: ',
    $left > 0 && $left < $before - $drift - 450 ? 'yes' : "no: $left of $before", "\n";
rt_signal($servers[1], 'CONT');
rt_signal($servers[2], 'CONT');
var_dump($r->unlock($lock));
?>
--EXPECT--
bool(true)
bool(true)
bool(true)
bool(true)
bool(true)
bool(true)
bool(false)
bool(true)
waited for the resumed server: true, the wait subtracted: yes
bool(true)
