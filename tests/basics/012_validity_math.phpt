--TEST--
validity = ttl - elapsed - drift, with drift = ttl * 0.01 + 2 ms
--EXTENSIONS--
redlock
--FILE--
<?php
require __DIR__ . '/../inc/redlock_test.inc';
$redlock = new RedLock(rt_servers(5, 2.0), 10, 1);
$redlock->unlock($redlock->lock(rt_key('warm-up'), 10000)); // connect first: ttl 100 leaves 97 ms
foreach ([100, 1000, 12345, 10000, 86400000] as $ttl) {
    $key = rt_key("ttl$ttl");
    $drift = $ttl * 0.01 + 2;
    [$lock, $ms] = rt_timed(fn () => $redlock->lock($key, $ttl));
    if (!is_array($lock)) {
        echo "ttl $ttl: no lock\n";
        continue;
    }
    // Not more than ttl - drift, and not less than that minus the time the whole call took.
    $upper = $lock['validity'] <= $ttl - $drift;
    $lower = $lock['validity'] > $ttl - $drift - $ms - 0.001;
    echo "ttl $ttl: ", gettype($lock['validity']), ", at most ttl - drift: ", var_export($upper, true),
        ", at least ttl - drift - elapsed: ", var_export($lower, true), "\n";
    if (!$upper || !$lower) {
        echo "  validity {$lock['validity']}, drift $drift, call took $ms ms\n";
    }
    $redlock->unlock($lock);
}
?>
--EXPECT--
ttl 100: double, at most ttl - drift: true, at least ttl - drift - elapsed: true
ttl 1000: double, at most ttl - drift: true, at least ttl - drift - elapsed: true
ttl 12345: double, at most ttl - drift: true, at least ttl - drift - elapsed: true
ttl 10000: double, at most ttl - drift: true, at least ttl - drift - elapsed: true
ttl 86400000: double, at most ttl - drift: true, at least ttl - drift - elapsed: true
