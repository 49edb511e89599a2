--TEST--
autoExtend: a run() whose $fn sleeps 5x the ttl keeps the lock the whole time (another client, in another process, never gets it); one renewal thread while held, none and no extra socket after
--EXTENSIONS--
redlock
--FILE--
<?php
require __DIR__ . '/../inc/watch.inc';
$key = rt_key();
rt_values($key); // the test's own redis links, opened before counting sockets
$threads = wt_threads();
$sockets = wt_sockets();
$r = new RedLock(rt_servers(5, 1.0), 10, 0, ['autoExtend' => true, 'persistent' => false]);
$ttl = 1000;
$servers = var_export(rt_servers(5, 1.0), true);
$other = <<<PHP
<?php
\$other = new RedLock($servers, 10, 0);
\$won = 0;
for (\$i = 0; \$i < 30; \$i++) {           // 5 x the ttl, trying every ttl/6
    usleep(intdiv($ttl * 1000, 6));
    if (\$l = \$other->lock('$key', 10000)) {
        \$won++;
        \$other->unlock(\$l);
    }
}
echo \$won;
PHP;
$file = sys_get_temp_dir() . '/redlock-700-' . getmypid() . '.php';
file_put_contents($file, $other);
$result = $r->run($key, $ttl, function (array $lock, RedLock $r) use ($key, $threads, $file) {
    echo 'renewal threads while held: ', wt_threads() - $threads, "\n";
    $ext = realpath(__DIR__ . '/../../modules/redlock.so');
    $won = shell_exec(escapeshellarg(PHP_BINARY) . ' -n -d extension=' . escapeshellarg($ext) . ' ' . escapeshellarg($file));
    echo 'the other process won it: ', var_export($won, true), " times\n";
    echo 'still held by us on: ', count(array_filter(rt_values($key), fn ($v) => $v === $lock['token'])), " of 5\n";
    var_dump($r->validity($lock) > 0);
    // The renewal thread sleeps between renewals: well under 100 ms of CPU over these 5 ttls (a thread
    // that spun, as one whose timed waits returned at once did, takes a core's share of the whole time).
    $ticks = 0;
    foreach (glob('/proc/self/task/*') as $task) {
        if (basename($task) !== (string) getmypid()) {
            $stat = explode(' ', substr(file_get_contents("$task/stat"), strrpos(file_get_contents("$task/stat"), ')') + 2));
            $ticks += (int) $stat[11] + (int) $stat[12]; // utime, stime
        }
    }
    echo 'renewal thread CPU under 100 ms: ', var_export($ticks * 1000 / 100 < 100, true), "\n";
    return 'done';
});
unlink($file);
var_dump($result);
// run() returns once a quorum released: the other servers' DEL may still be on its way
rt_eventually(fn () => count(array_filter(rt_values($key), fn ($v) => $v === null)) === 5, 2.0 * rt_time_scale() * rt_load_scale());
echo 'released: ', count(array_filter(rt_values($key), fn ($v) => $v === null)), " of 5\n";
echo 'renewal threads after: ', wt_threads_settled($threads) - $threads, "\n";
unset($r);
echo 'sockets left: ', wt_sockets() - $sockets, "\n";
?>
--EXPECT--
renewal threads while held: 1
the other process won it: '0' times
still held by us on: 5 of 5
bool(true)
renewal thread CPU under 100 ms: true
string(4) "done"
released: 5 of 5
renewal threads after: 0
sockets left: 0
