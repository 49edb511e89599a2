--TEST--
After pcntl_fork(), parent and child each keep using a RedLock made before the fork: neither reads the other's replies
--EXTENSIONS--
redlock
pcntl
--SKIPIF--
<?php if (!function_exists('pcntl_fork')) die('skip pcntl_fork() is not available'); ?>
--FILE--
<?php
require __DIR__ . '/../inc/redlock_test.inc';
$redlock = new RedLock(rt_servers(5, 2.0), 0, 1);
$warm = $redlock->lock(rt_key('warm'), 10000); // the connections are open before the fork
var_dump(is_array($warm) && $redlock->unlock($warm));

/** Locks and unlocks $cycles keys; returns what went wrong, or [] */
function cycles(RedLock $redlock, string $who, int $cycles): array
{
    $problems = [];
    for ($i = 0; $i < $cycles; $i++) {
        $lock = $redlock->lock(rt_key("$who:$i"), 10000);
        /* "no reply needed": the quorum was reached before that server answered, as usual */
        $errors = array_filter($redlock->getLastErrors(), fn ($e) => $e !== null && $e !== 'no reply needed');
        if (!is_array($lock) || $errors) {
            $problems[] = "lock $i: " . json_encode($errors);
            continue;
        }
        if (!$redlock->unlock($lock)) {
            $problems[] = "unlock $i: " . json_encode(array_filter($redlock->getLastErrors()));
        }
    }
    return $problems;
}

$report = tempnam(sys_get_temp_dir(), 'redlock-fork');
$pid = pcntl_fork();
if ($pid === 0) {
    file_put_contents($report, json_encode(cycles($redlock, 'child', 300)));
    exit(0);
}
$parent = cycles($redlock, 'parent', 300);
pcntl_waitpid($pid, $status);
$child = json_decode((string) file_get_contents($report), true);
unlink($report);
echo "parent: ", $parent ? implode("\n", array_slice($parent, 0, 3)) : 'all 300 fine', "\n";
echo "child: ", $child === [] ? 'all 300 fine' : json_encode(array_slice((array) $child, 0, 3)), "\n";
$lock = $redlock->lock(rt_key('after'), 10000);
var_dump(is_array($lock) && $redlock->unlock($lock));
?>
--EXPECT--
bool(true)
parent: all 300 fine
child: all 300 fine
bool(true)
