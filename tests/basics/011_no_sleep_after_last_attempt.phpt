--TEST--
No pause after the last failed attempt: retryCount=1 with retryDelay=5000 returns at once
--EXTENSIONS--
redlock
--FILE--
<?php
require __DIR__ . '/../inc/redlock_test.inc';
$key = rt_key();
$holder = new RedLock(rt_servers(5, 2.0));
$held = $holder->lock($key, 10000);
var_dump(is_array($held));

// A pause after the last attempt would take at least 2500 ms here.
$redlock = new RedLock(rt_servers(5, 2.0), 5000, 1);
[$lock, $ms] = rt_timed(fn () => $redlock->lock($key, 10000));
var_dump($lock);
echo "under 2000 ms: ", var_export($ms < 2000, true), "\n";

// retryCount=2: exactly one pause of 300..600 ms, none after the second attempt.
$redlock = new RedLock(rt_servers(5, 2.0), 600, 2);
[$lock, $ms] = rt_timed(fn () => $redlock->lock($key, 10000));
var_dump($lock);
echo "one pause: ", var_export($ms >= 300 && $ms < 1800, true), "\n";
var_dump($holder->unlock($held));
?>
--EXPECT--
bool(true)
bool(false)
under 2000 ms: true
bool(false)
one pause: true
bool(true)
