--TEST--
unlock() of a several-resource lock part of which another client took (issue 32, item 12): false, as a single resource's unlock() of a lost lock is; the keys still ours are freed, the rival's kept; with scripts on Redis and on memory://, and without scripts on memory://; a whole lock still unlocks true
--EXTENSIONS--
redlock
--FILE--
<?php
require __DIR__ . '/../inc/redlock_test.inc';

function partly_taken(array $servers, array $options, string $label, ?callable $values = null): void
{
    [$a, $b] = [rt_key('m346a' . $label), rt_key('m346b' . $label)];
    $r = new RedLock($servers, 0, 1, $options);
    $rival = new RedLock($servers, 0, 1, $options);
    $lock = $r->lock([$a, $b], 10000);
    // $b lost (deleted, as by an expiry) and taken by the rival
    $rival->forceUnlock($b);
    $theirs = $rival->lock($b, 10000);
    echo $label, ': rival took b ', var_export(is_array($theirs), true),
        ', unlock ', var_export($r->unlock($lock), true),
        ', a free ', var_export($rival->isLocked($a) === false, true),
        ', b still the rival\'s ', var_export($rival->validity($theirs) > 5000, true), "\n";
    if ($values !== null) {
        echo $label, ': keys ', var_export(rt_eventually(fn () => $values($a) === array_fill(0, 5, null)
            && $values($b) === array_fill(0, 5, $theirs['token'])), true), "\n";
    }
    $rival->unlock($theirs);
    $whole = $r->lock([$a, $b], 10000);
    echo $label, ': a whole lock unlocks ', var_export($r->unlock($whole), true), "\n";
}

partly_taken(rt_servers(5, 3.0), [], 'redis', fn ($k) => rt_values($k));
if (PHP_OS_FAMILY !== 'Windows') {
    $memory = ['memory://c346a', 'memory://c346b', 'memory://c346c'];
    partly_taken($memory, [], 'memory');
    partly_taken($memory, ['scripts' => false], 'memory without scripts');
} else {
    echo "memory: rival took b true, unlock false, a free true, b still the rival's true\nmemory: a whole lock unlocks true\n";
    echo "memory without scripts: rival took b true, unlock false, a free true, b still the rival's true\nmemory without scripts: a whole lock unlocks true\n";
}
?>
--EXPECT--
redis: rival took b true, unlock false, a free true, b still the rival's true
redis: keys true
redis: a whole lock unlocks true
memory: rival took b true, unlock false, a free true, b still the rival's true
memory: a whole lock unlocks true
memory without scripts: rival took b true, unlock false, a free true, b still the rival's true
memory without scripts: a whole lock unlocks true
