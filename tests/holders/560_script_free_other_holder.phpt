--TEST--
Another holder of a script-free lock (issue 24, defect 1): x takes lock('r', 10000) with 'scripts' => false; y, another object, gets the array and calls extend($lock, 300): refused with a ValueError (the token carries the lock's ttl), so the keys keep 10000 ms and z cannot take the lock 450 ms later; after y's unlock() x's validity() asks the servers and says false (it answered from its own lease, 9.4 s); the array restored from serialize() and json_encode() in a new object extends with the lock's own ttl
--EXTENSIONS--
redlock
--SKIPIF--
<?php if (PHP_OS_FAMILY === 'Windows') die('skip memory:// needs unix sockets'); ?>
--FILE--
<?php
$servers = ['memory://h560a', 'memory://h560b', 'memory://h560c'];
$free = ['scripts' => false];
$x = new RedLock($servers, 0, 1, $free);
$y = new RedLock($servers, 0, 1, $free);
$z = new RedLock($servers, 0, 1, $free);

$lock = $x->lock('r', 10000);
try {
    var_dump($y->extend($lock, 300));
} catch (ValueError $e) {
    echo get_class($e), ': ', $e->getMessage(), "\n";
}
RedLockMemory::advance(450);
var_dump($z->lock('r', 10000));
$left = $x->validity($lock);
var_dump($left > 9000 && $left < 9600);

echo "-- restored in other objects\n";
foreach (['serialize' => unserialize(serialize($lock)), 'json' => json_decode(json_encode($lock), true)] as $how => $copy) {
    $other = new RedLock($servers, 0, 1, $free);
    $ext = $other->extend($copy, 10000);
    /* extend() returns with a quorum: the last server's extension may land a moment later (the
     * test clock stands still meanwhile); bounded: 200 x 10 ms */
    $least = fn () => min(array_map(fn ($s) => RedLockMemory::keys($s)['r'], $servers));
    for ($i = 0; $i < 200 && $least() <= 9700; $i++) {
        usleep(10000);
    }
    echo $how, ': ', var_export(is_array($ext) && $ext['validity'] > 9000, true), ', ',
        var_export($least() > 9700, true), "\n";
}

echo "-- released by another holder\n";
var_dump($y->unlock($lock));
var_dump($x->validity($lock), is_array($z->lock('r', 1000)));

echo "-- a token without the lock's ttl (another client's, an older version's)\n";
$old = $x->lock('old', 5000);
$old['token'] = substr($old['token'], 0, 32);
try {
    $y->extend($old, 5000);
} catch (ValueError $e) {
    echo get_class($e), ': ', $e->getMessage(), "\n";
}
RedLockMemory::reset();
?>
--EXPECT--
ValueError: RedLock::extend(): Argument #2 ($ttl) must be the ttl the lock was taken with (10000 ms, carried by ["token"]) when scripts are not used ("scripts" => false): a command with another ttl could cut the lock short for its other holders
bool(false)
bool(true)
-- restored in other objects
serialize: true, true
json: true, true
-- released by another holder
bool(true)
bool(false)
bool(true)
-- a token without the lock's ttl (another client's, an older version's)
ValueError: RedLock::extend(): Argument #1 ($lock) ["token"] does not carry the ttl the lock was taken with (a lock of another client or of an older version), which extending it without scripts ("scripts" => false) needs
