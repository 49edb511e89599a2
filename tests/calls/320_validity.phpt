--TEST--
validity(): what a quorum still agrees on, decreasing over time, false after unlock or expiry
--EXTENSIONS--
redlock
--FILE--
<?php
require __DIR__ . '/../inc/redlock_test.inc';
$key = rt_key();
$r = new RedLock(rt_servers(5, 3.0));
$lock = $r->lock($key, 5000);
$first = $r->validity($lock);
var_dump(is_float($first), $first > 3000 && $first <= 5000 - 52); // drift: 0.01 * 5000 + 2
usleep(400000);
$second = $r->validity($lock);
var_dump($second <= $first - 200); // 400 ms later: about 396 ms less
var_dump($r->unlock($lock), $r->validity($lock));

// Expired: false.
$lock = $r->lock($key, 250);
var_dump(rt_eventually(fn () => rt_values($key) === array_fill(0, 5, null)));
var_dump($r->validity($lock));

// A quorum's view counts: with 3 of 5 needed, never more than the third largest remaining ttl,
// never less than the smallest (validity() decides on the first three yes answers, a safe lower
// bound: more answers could only raise the third largest).
$lock = $r->lock($key, 60000);
foreach (array_combine(rt_ports(), [10000, 40000, 20000, 50000, 30000]) as $port => $ms) {
    rt_redis($port, 'PEXPIRE', $key, (string) $ms);
}
$v = $r->validity($lock);
var_dump($v > 9000 && $v <= 30000 - 302); // drift on the remaining 30000: 0.01 * 30000 + 2

// Held by only two servers (the others lost it): fewer than a quorum, false.
foreach (array_slice(rt_ports(), 0, 3) as $port) {
    rt_redis($port, 'DEL', $key);
}
var_dump($r->validity($lock));
// A different token on the other servers does not count either.
rt_redis(rt_ports()[0], 'SET', $key, 'someone-else', 'PX', '60000');
var_dump($r->validity($lock));
rt_del($key);

echo rt_throws(fn () => $r->validity(['resource' => '', 'token' => 'x'])), "\n";
echo rt_throws(fn () => $r->validity(['token' => 'x'])), "\n";
?>
--EXPECT--
bool(true)
bool(true)
bool(true)
bool(true)
bool(false)
bool(true)
bool(false)
bool(true)
bool(false)
bool(false)
ValueError: RedLock::validity(): Argument #1 ($lock) ["resource"] must not be empty
ValueError: RedLock::validity(): Argument #1 ($lock) must contain the key "resource"
