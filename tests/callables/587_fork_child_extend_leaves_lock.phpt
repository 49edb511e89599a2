--TEST--
run(): a child forked inside $fn that extend()s the handed lock (maxExtensions: the cap then tracks it in the child) still leaves the lock to its parent when it exits
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
$parent = getmypid();
foreach ([['maxExtensions' => 5], ['maxExtensions' => 5, 'autoExtend' => true], []] as $options) {
    $redlock = new RedLock($servers, 0, 1, $options);
    $key = rt_key(json_encode($options));
    $result = $redlock->run($key, 60000, function (array $lock, RedLock $r) use ($key, $rival) {
        if (pcntl_fork() === 0) {
            exit($r->extend($lock, 60000) !== false ? 0 : 1); // leaves the child's run() too
        }
        pcntl_wait($status);
        $kept = rt_values_are($key, array_fill(0, 5, $lock['token']));
        return 'the child extended it: ' . (pcntl_wexitstatus($status) === 0 ? 'yes' : 'no')
            . ($kept ? ', kept on 5 of 5' : ', RELEASED: ' . json_encode(rt_values($key)))
            . ($rival->lock($key, 10000) === false ? ', a rival cannot lock it' : ', A RIVAL LOCKED IT');
    });
    if (getmypid() !== $parent) {
        exit(1); // never: the child exits inside $fn
    }
    echo json_encode($options), ": $result; released by the parent: ",
        rt_values_are($key, array_fill(0, 5, null)) ? 'yes' : 'no', "\n";
}
?>
--EXPECT--
{"maxExtensions":5}: the child extended it: yes, kept on 5 of 5, a rival cannot lock it; released by the parent: yes
{"maxExtensions":5,"autoExtend":true}: the child extended it: yes, kept on 5 of 5, a rival cannot lock it; released by the parent: yes
[]: the child extended it: yes, kept on 5 of 5, a rival cannot lock it; released by the parent: yes
