--TEST--
pcntl_fork(): the child hashes pool keys with its own secret, so nothing keyed by its parent's secret is ever pooled or handed out in it
--EXTENSIONS--
redlock
pcntl
--SKIPIF--
<?php if (!function_exists('pcntl_fork')) die('skip pcntl_fork() is not available'); ?>
--INI--
redlock.persistent=1
--FILE--
<?php
require __DIR__ . '/../inc/redlock_test.inc';
/* Observed through the pool counters phpinfo() shows. Objects with the same server and credentials
 * have equal pool keys only when hashed with the same secret: an object made in the parent and used
 * in the child opens its own connection there, and that connection must not reach an object made in
 * the child (its key, from the child's secret, differs). With one secret for both, it would. */
[[$host, $port]] = rt_endpoints();
$servers = [[$host, $port, 2.0]];
$cycle = function (RedLock $r, string $name): bool {
    $lock = $r->lock(rt_key($name), 10000);
    return is_array($lock) && $r->unlock($lock);
};
$before = new RedLock($servers, 10, 1);
var_dump($cycle($before, 'parent'));

$report = tempnam(sys_get_temp_dir(), 'redlock-pool-key');
$pid = pcntl_fork();
if ($pid === 0) {
    $out = [];
    $out['object made before the fork locks'] = $cycle($before, 'child-before');
    $s0 = rt_pool_stats();
    unset($before); // its connection, opened in the child, is keyed with the parent's secret
    $s1 = rt_pool_stats();
    $out['its connection pooled'] = $s1['idle'] - $s0['idle'];
    $made = new RedLock($servers, 10, 1);
    $out['an object made in the child locks'] = $cycle($made, 'child-made');
    $s2 = rt_pool_stats();
    $out['it reused a connection'] = $s2['reused'] - $s1['reused'];
    unset($made); // keyed with the child's secret: pooled, and reused by the next one
    $again = new RedLock($servers, 10, 1);
    $out['the next one locks'] = $cycle($again, 'child-again');
    $out['and reused its connection'] = rt_pool_stats()['reused'] - $s2['reused'];
    file_put_contents($report, json_encode($out));
    exit(0);
}
pcntl_waitpid($pid, $status);
foreach ((array) json_decode((string) file_get_contents($report), true) as $what => $value) {
    echo "child: $what: ", var_export($value, true), "\n";
}
unlink($report);
// The parent's keys are unchanged by the child: its connection goes back and is reused.
$s0 = rt_pool_stats();
unset($before);
$after = new RedLock($servers, 10, 1);
var_dump($cycle($after, 'parent-after'), rt_pool_stats()['reused'] - $s0['reused']);
?>
--EXPECT--
bool(true)
child: object made before the fork locks: true
child: its connection pooled: 0
child: an object made in the child locks: true
child: it reused a connection: 0
child: the next one locks: true
child: and reused its connection: 1
bool(true)
int(1)
