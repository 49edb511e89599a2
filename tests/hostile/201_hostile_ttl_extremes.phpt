--TEST--
Hostile input: ttl at 1, near and at PHP_INT_MAX, huge but accepted, and out of range
--EXTENSIONS--
redlock
--FILE--
<?php
require __DIR__ . '/../inc/reliability.inc';
$redlock = new RedLock(rt_servers(5, 5.0), 10, 2);

echo "ttl 1: no validity is left after the drift, so false; nothing stays held\n";
$key = rt_key('one');
var_dump($redlock->lock($key, 1));
usleep(20000);
var_dump(rt_values($key) === array_fill(0, 5, null));

foreach (['PHP_INT_MAX' => PHP_INT_MAX, 'PHP_INT_MAX - 1' => PHP_INT_MAX - 1, 'PHP_INT_MAX - 10^12' => PHP_INT_MAX - 10 ** 12] as $label => $ttl) {
    echo "ttl $label: Redis rejects the PX (invalid expire time): false, quickly\n";
    $key = rt_key($label);
    [$lock, $ms] = rt_timed(fn () => $redlock->lock($key, $ttl));
    var_dump($lock, $ms < 2000, rt_values($key) === array_fill(0, 5, null));
}
$reply = rt_redis(rt_ports()[0], 'SET', rt_key('direct'), 'x', 'NX', 'PX', (string) PHP_INT_MAX);
var_dump($reply instanceof RuntimeException && str_contains($reply->getMessage(), 'invalid expire time'));

foreach (['10^15' => 10 ** 15, '2^62' => 2 ** 62] as $label => $ttl) {
    echo "ttl $label ms: accepted (now + ttl fits in Redis' 64 bits); validity is ttl - 1%\n";
    $key = rt_key($label);
    $lock = $redlock->lock($key, $ttl);
    var_dump(is_float($lock['validity']), $lock['validity'] > 0.98 * $ttl, $lock['validity'] < $ttl);
    var_dump(rt_redis(rt_ports()[0], 'PTTL', $key) > 0.99 * $ttl);
    var_dump($redlock->unlock($lock), rf_settled_values($key, array_fill(0, 5, null)) === array_fill(0, 5, null));
}

echo "out of range\n";
foreach ([0, -1, PHP_INT_MIN] as $ttl) {
    try {
        $redlock->lock($key, $ttl);
    } catch (ValueError $e) {
        echo $e->getMessage(), "\n";
    }
}
foreach ([1e30, NAN, INF] as $ttl) {
    try {
        $redlock->lock($key, $ttl);
    } catch (TypeError $e) {
        echo $e->getMessage(), "\n";
    }
}
?>
--EXPECT--
ttl 1: no validity is left after the drift, so false; nothing stays held
bool(false)
bool(true)
ttl PHP_INT_MAX: Redis rejects the PX (invalid expire time): false, quickly
bool(false)
bool(true)
bool(true)
ttl PHP_INT_MAX - 1: Redis rejects the PX (invalid expire time): false, quickly
bool(false)
bool(true)
bool(true)
ttl PHP_INT_MAX - 10^12: Redis rejects the PX (invalid expire time): false, quickly
bool(false)
bool(true)
bool(true)
bool(true)
ttl 10^15 ms: accepted (now + ttl fits in Redis' 64 bits); validity is ttl - 1%
bool(true)
bool(true)
bool(true)
bool(true)
bool(true)
bool(true)
ttl 2^62 ms: accepted (now + ttl fits in Redis' 64 bits); validity is ttl - 1%
bool(true)
bool(true)
bool(true)
bool(true)
bool(true)
bool(true)
out of range
RedLock::lock(): Argument #2 ($ttl) must be greater than 0
RedLock::lock(): Argument #2 ($ttl) must be greater than 0
RedLock::lock(): Argument #2 ($ttl) must be greater than 0
RedLock::lock(): Argument #2 ($ttl) must be of type int, float given
RedLock::lock(): Argument #2 ($ttl) must be of type int, float given
RedLock::lock(): Argument #2 ($ttl) must be of type int, float given
