--TEST--
extend() and validity() of a several-resource lock part of which another client took (issue 33, item 6: the dialect's native forms per key count): a server counts only where every key is still ours, so extend() and validity() are false, with scripts and without them (memory:// servers: SET IFEQ per key, then GET per key); the whole lock extends and keeps its validity
--EXTENSIONS--
redlock
--SKIPIF--
<?php if (PHP_OS_FAMILY === 'Windows') die('skip memory:// servers');
--FILE--
<?php
require __DIR__ . '/../inc/redlock_test.inc';

function partly_taken(array $options, string $label): void
{
    $servers = ['memory://c350a', 'memory://c350b', 'memory://c350c'];
    [$a, $b] = ["m350a-$label", "m350b-$label"];
    $r = new RedLock($servers, 0, 1, $options);
    $rival = new RedLock($servers, 0, 1, $options);
    $whole = $r->lock([$a, $b], 10000);
    $extended = $r->extend($whole, 10000);
    echo $label, ': whole: extend ', var_export(is_array($extended), true), ', validity > 5 s ',
        var_export(is_array($extended) && $r->validity($extended) > 5000, true), "\n";
    $lock = is_array($extended) ? $extended : $whole;
    // $b lost (deleted, as by an expiry) and taken by the rival
    $rival->forceUnlock($b);
    $theirs = $rival->lock($b, 10000);
    echo $label, ': rival took b ', var_export(is_array($theirs), true),
        ', validity ', var_export($r->validity($lock), true),
        ', extend ', var_export($r->extend($lock, 10000), true), "\n";
    $rival->unlock($theirs);
    $r->forceUnlock($a);
}

partly_taken([], 'scripts');
partly_taken(['scripts' => false], 'without scripts');
?>
--EXPECT--
scripts: whole: extend true, validity > 5 s true
scripts: rival took b true, validity false, extend false
without scripts: whole: extend true, validity > 5 s true
without scripts: rival took b true, validity false, extend false
