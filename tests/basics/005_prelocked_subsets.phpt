--TEST--
Each of the 32 subsets of 5 servers pre-held by a foreign value: lock iff >= 3 are free; rollback on failure
--EXTENSIONS--
redlock
--FILE--
<?php
require __DIR__ . '/../inc/redlock_test.inc';
$ports = rt_ports();
$redlock = new RedLock(rt_servers(5, 2.0), 10, 1);
$locked = $refused = 0;

for ($mask = 0; $mask < 32; $mask++) {
    $key = rt_key("mask$mask");
    $foreign = "foreign-$mask";
    $held = [];
    for ($i = 0; $i < 5; $i++) {
        if ($mask & (1 << $i)) {
            rt_redis($ports[$i], 'SET', $key, $foreign, 'PX', '60000');
            $held[] = $i;
        }
    }
    $lock = $redlock->lock($key, 10000);
    $want = count($held) <= 2;
    if (is_array($lock) !== $want) {
        echo "mask $mask (held by ", implode(',', $held), "): expected ", $want ? 'a lock' : 'false', ", got ",
            var_export($lock, true), "\n";
        continue;
    }
    $want ? $locked++ : $refused++;
    // Free servers end with our token after a success, with nothing after a failure (the rollback).
    // The foreign values are never touched.
    $expected = [];
    for ($i = 0; $i < 5; $i++) {
        $expected[] = in_array($i, $held, true) ? $foreign : ($lock ? $lock['token'] : null);
    }
    usleep(50000); // SETs still in flight when the quorum was decided land by now
    if (!rt_eventually(fn () => rt_values($key) === $expected)) {
        echo "mask $mask: servers hold ", json_encode(rt_values($key)), ", expected ", json_encode($expected), "\n";
    }
    if ($lock) {
        if (!$redlock->unlock($lock)) {
            echo "mask $mask: unlock failed\n";
        }
        $after = array_map(fn ($i) => in_array($i, $held, true) ? $foreign : null, range(0, 4));
        usleep(50000);
        if (!rt_eventually(fn () => rt_values($key) === $after)) {
            echo "mask $mask: after unlock servers hold ", json_encode(rt_values($key)), "\n";
        }
    }
    rt_del($key);
}
echo "locked $locked, refused $refused\n";
?>
--EXPECT--
locked 16, refused 16
