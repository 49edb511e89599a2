--TEST--
A heal costs only the healed member's vote, never the others': an extend() of a lock no lease tracks (its ttl shorter than what the keys have left: extensions never shorten) heals member A, which had lost our key; B and C said yes and hold our key throughout. Past that extend's promise A's yes may rest on a late heal and is not counted, but B's and C's are, in the process that healed and in a child forked right after the heal (whose connections can never show the parent's heal landed): both extend the lock. Before, the heal went to every member and was recorded for each, so past the promise no member counted and nothing could clear the records: every extend() of the lock answered false for ever, in the parent as in the child
--EXTENSIONS--
redlock
pcntl
posix
--FILE--
<?php
require __DIR__ . '/../inc/faultproxy.inc';
fp_alarm(60);
$scale = min(3.0, fp_time_scale()) * rt_load_scale();
$long = (int) (30000 * $scale);  /* the lock's ttl: the keys outlive the test */
$short = (int) (600 * $scale);   /* the healing extend's ttl: its promise ends within it */
$a = fp_spawn_server();
$b = fp_spawn_server();
$c = fp_spawn_server();
$bound = min(60.0, 3.0 * $long / 1000);
$servers = [['127.0.0.1', $a['port'], $bound], ['127.0.0.1', $b['port'], $bound], ['127.0.0.1', $c['port'], $bound]];
$key = rt_key('forked-after-heal');
$r = new RedLock($servers, 0, 0); /* no lease: the heals are kept in the object's registry */
$lock = $r->lock($key, $long);
$onA = fn () => rf_cmd($a['port'], 'GET', $key) === $lock['token'];
echo 'locked on A: ', var_export(is_array($lock) && rt_eventually($onA, 5.0 * $scale), true), "\n";
rf_cmd($a['port'], 'DEL', $key); /* as a restart: the key gone, our connection closed, so the extend awaits A */
rf_cmd($a['port'], 'CLIENT', 'KILL', 'TYPE', 'normal');
$t1 = microtime(true);
echo 'extend (heals A): ', var_export(is_array($r->extend($lock, $short)), true), "\n";
echo 'A healed: ', var_export(rt_eventually($onA, 5.0 * $scale), true), "\n";
echo 'B and C keep the longer ttl: ', var_export(rf_cmd($b['port'], 'PTTL', $key) > 2 * $short
    && rf_cmd($c['port'], 'PTTL', $key) > 2 * $short, true), "\n";

$said = tempnam(sys_get_temp_dir(), 'rl657');
$pid = pcntl_fork();
if ($pid === 0) {
    while (microtime(true) < $t1 + 1.5 * $short / 1000) { /* past the heal's promise: a lower bound, no race */
        usleep(20000);
    }
    $extended = is_array($r->extend($lock, $long)) && is_array($r->extend($lock, $long));
    $valid = $r->validity($lock) > 0;
    file_put_contents($said, (string) (($extended ? 1 : 0) | ($valid ? 2 : 0)));
    posix_kill(getmypid(), SIGKILL); /* no shutdown of the parent's state (its servers) in the child */
}
pcntl_waitpid($pid, $status);
$code = (int) file_get_contents($said);
unlink($said);
echo 'the child extended the lock past the promise: ', var_export(($code & 1) === 1, true), "\n";
echo 'the child\'s validity(): ', var_export(($code & 2) === 2, true), "\n";
echo 'the parent extends it: ', var_export(is_array($r->extend($lock, $long)), true), "\n";
echo 'unlock: ', var_export($r->unlock($lock), true), "\n";
?>
--EXPECT--
locked on A: true
extend (heals A): true
A healed: true
B and C keep the longer ttl: true
the child extended the lock past the promise: true
the child's validity(): true
the parent extends it: true
unlock: true
