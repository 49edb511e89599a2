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

/* Bounds on round trips scale with the load per core (rt_load_scale(): 1 on a machine no busier than its cores, where
 * the test is as it was, up to 5), and so do the retry delays they are set against: a pause that should not be there
 * still takes longer than its bound at every scale. */
$s = rt_load_scale();
// A pause after the last attempt would take at least 2500 ms here (times the scale).
$redlock = new RedLock(rt_servers(5, 2.0), (int) (5000 * $s), 1);
[$lock, $ms] = rt_timed(fn () => $redlock->lock($key, 10000));
var_dump($lock);
echo "under 2000 ms: ", var_export($ms < 2000 * $s, true), "\n";

// retryCount=2: exactly one pause of 300..600 ms (times the scale), none after the second attempt.
$redlock = new RedLock(rt_servers(5, 2.0), (int) (600 * $s), 2);
[$lock, $ms] = rt_timed(fn () => $redlock->lock($key, 10000));
var_dump($lock);
echo "one pause: ", var_export($ms >= 300 * $s && $ms < 1800 * $s, true), "\n";
var_dump($holder->unlock($held));
?>
--EXPECT--
bool(true)
bool(false)
under 2000 ms: true
bool(false)
one pause: true
bool(true)
