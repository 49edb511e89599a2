--TEST--
RedLock::fromCluster(): a password holding "member=" (in the URI's user info, or as ?password=) names no member and is not refused as one; only a real ?member= or a "member" key is (ValueError); the seeds are then asked for their map (here nobody listens: RedLockException)
--EXTENSIONS--
redlock
--FILE--
<?php
require __DIR__ . '/../inc/redlock_test.inc';
$port = rt_free_port(); // nobody listens there
$try = function ($seeds) {
    try {
        RedLock::fromCluster($seeds);
        echo "built\n";
    } catch (Throwable $e) {
        echo get_class($e), ': ', str_contains($e->getMessage(), 'must not name a member') ? 'names a member' : 'asked the seeds', "\n";
    }
};
$try("cluster://user:abcmember=1@127.0.0.1:$port?timeout=0.2");
$try("cluster://127.0.0.1:$port?password=xmember=2&timeout=0.2");
$try("user:member=3@127.0.0.1:$port?timeout=0.2");
$try(['cluster' => ["127.0.0.1:$port"], 'password' => 'member=4', 'timeout' => 0.2]);
$try("cluster://127.0.0.1:$port?timeout=0.2&member=1");
$try(['cluster' => ["127.0.0.1:$port"], 'member' => 1]);
?>
--EXPECT--
RedLockException: asked the seeds
RedLockException: asked the seeds
RedLockException: asked the seeds
RedLockException: asked the seeds
ValueError: names a member
ValueError: names a member
