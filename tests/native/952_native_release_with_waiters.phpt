--TEST--
Native release and notified waiting: an object with waitTimeout releases by script even where DELEX/DELIFEQ exist (the script PUBLISHes the release, DELEX cannot), so a waiter on Redis 8.6 / Valkey 9 is woken by the release and not only by its backoff; objects without waitTimeout keep the native release
--EXTENSIONS--
redlock
pcntl
posix
--INI--
redlock.persistent=0
--SKIPIF--
<?php require __DIR__ . '/native.inc'; nt_skip_without_servers(); ?>
--FILE--
<?php
require __DIR__ . '/native.inc';
$commands = ['delex', 'delifeq', 'evalsha', 'eval', 'publish'];
foreach (['redis 8.6' => nt_ports('redis'), 'valkey 9' => nt_ports('valkey')] as $name => $ports) {
    $servers = array_map(fn ($p) => ['127.0.0.1', $p, 10.0], $ports);
    $key = rt_key();
    foreach (['waitTimeout' => ['waitTimeout' => 5000], 'no option' => []] as $label => $options) {
        $redlock = new RedLock($servers, 10, 1, $options);
        $warm = $redlock->lock("$key-warm", 10000); // the probes: the connections know what the servers have
        $redlock->unlock($warm);
        $lock = $redlock->lock($key, 10000);
        rt_eventually(fn () => count(array_filter(array_map(fn ($p) => rt_redis($p, 'GET', $key), $ports))) === 3, 5);
        $stats = nt_count($ports, $commands, fn () => $redlock->unlock($lock));
        $sum = array_fill_keys($commands, 0);
        foreach ($stats as $s) {
            foreach ($s as $c => $n) {
                $sum[$c] += $n;
            }
        }
        echo "$name, $label: ", json_encode(array_filter($sum)), "\n";
    }

    // A waiter whose backoff (retryDelay 60 s) is longer than its whole wait gets the lock after the
    // holder's unlock(): only the release's PUBLISH can wake it in time.
    $holder = new RedLock($servers, 10, 1, ['waitTimeout' => 5000]);
    $lock = $holder->lock("$key-h", 60000);
    $flag = sys_get_temp_dir() . '/redlock-n902-' . getmypid();
    @unlink($flag);
    $pid = pcntl_fork();
    if ($pid === 0) {
        $waiter = new RedLock($servers, 60000, 0, ['waitTimeout' => 20000]);
        $got = $waiter->lock("$key-h", 10000);
        file_put_contents($flag, is_array($got) ? 'got it after the release' : 'no');
        posix_kill(getmypid(), SIGKILL); // nothing of the parent's runs in the child
    }
    usleep(500000); // the waiter has tried once and subscribed (or catches the release by its attempt after subscribing)
    $holder->unlock($lock);
    pcntl_waitpid($pid, $status);
    echo "$name: waiter: ", @file_get_contents($flag), "\n";
    @unlink($flag);
}
?>
--EXPECT--
redis 8.6, waitTimeout: {"eval":3,"publish":3}
redis 8.6, no option: {"delex":3}
redis 8.6: waiter: got it after the release
valkey 9, waitTimeout: {"eval":3,"publish":3}
valkey 9, no option: {"delifeq":3}
valkey 9: waiter: got it after the release
