--TEST--
run(): a child forked inside $fn never releases its parent's lock, however it ends (exit(), a return, an exception, a fatal error); an explicit unlock() in the child does
--EXTENSIONS--
redlock
pcntl
--SKIPIF--
<?php if (!function_exists('pcntl_fork')) die('skip pcntl_fork() is not available'); ?>
--FILE--
<?php
require __DIR__ . '/../inc/redlock_test.inc';
$servers = rt_servers(5, 2.0);
$rival = new RedLock($servers, 0, 1);
// How the child leaves run()'s $fn: it never returns to the parent's code (exit() at the latest).
$endings = [
    'exit(0), as fork helpers end their children' => fn () => exit(0),
    'returns normally' => fn () => null,
    'throws' => fn () => throw new RuntimeException('child failed'),
    'fatal error' => function () { ini_set('display_errors', '0'); ini_set('log_errors', '0'); trigger_error('child fatal', E_USER_ERROR); },
];
$parent = getmypid();
foreach ([false, true] as $autoExtend) {
    $redlock = new RedLock($servers, 0, 1, ['autoExtend' => $autoExtend]);
    foreach ($endings as $name => $ending) {
        $key = rt_key($name);
        try {
            $result = $redlock->run($key, 60000, function (array $lock) use ($key, $ending, $rival) {
                if (pcntl_fork() === 0) {
                    $ending(); // returns, or leaves the child's run() with an exception
                    return 'child';
                }
                pcntl_wait($status);
                $kept = rt_values_are($key, array_fill(0, 5, $lock['token']));
                $taken = $rival->lock($key, 10000);
                return ($kept ? 'kept on 5 of 5' : 'RELEASED: ' . json_encode(rt_values($key)))
                    . ($taken === false ? ', a rival cannot lock it' : ', A RIVAL LOCKED IT');
            });
        } catch (RuntimeException $e) {
            $result = $e->getMessage();
        }
        if (getmypid() !== $parent) {
            exit(0); // the child, out of run(): its parent's lock was not its own to release
        }
        echo ($autoExtend ? 'autoExtend, ' : ''), "child $name: $result; released by the parent: ",
            rt_values_are($key, array_fill(0, 5, null)) ? 'yes' : 'no', "\n";
    }
}

// An explicit unlock() by the child of the lock array it was handed: asked for by name, it works.
$redlock = new RedLock($servers, 0, 1);
$key = rt_key('explicit');
echo $redlock->run($key, 60000, function (array $lock, RedLock $r) use ($key) {
    if (pcntl_fork() === 0) {
        exit($r->unlock($lock) ? 0 : 1);
    }
    pcntl_wait($status);
    return 'the child unlocked it: ' . (pcntl_wexitstatus($status) === 0 ? 'yes' : 'no')
        . ', gone: ' . (rt_values_are($key, array_fill(0, 5, null)) ? 'yes' : 'no');
}), "\n";
?>
--EXPECT--
child exit(0), as fork helpers end their children: kept on 5 of 5, a rival cannot lock it; released by the parent: yes
child returns normally: kept on 5 of 5, a rival cannot lock it; released by the parent: yes
child throws: kept on 5 of 5, a rival cannot lock it; released by the parent: yes
child fatal error: kept on 5 of 5, a rival cannot lock it; released by the parent: yes
autoExtend, child exit(0), as fork helpers end their children: kept on 5 of 5, a rival cannot lock it; released by the parent: yes
autoExtend, child returns normally: kept on 5 of 5, a rival cannot lock it; released by the parent: yes
autoExtend, child throws: kept on 5 of 5, a rival cannot lock it; released by the parent: yes
autoExtend, child fatal error: kept on 5 of 5, a rival cannot lock it; released by the parent: yes
the child unlocked it: yes, gone: yes
