--TEST--
lockSemaphore() over the 32 subsets of 5 servers: with a slot pre-held on a subset the semaphore wins iff some slot is free on >= 3; slots taken on servers that voted otherwise are released
--EXTENSIONS--
redlock
--FILE--
<?php
require __DIR__ . '/../inc/redlock_test.inc';
$ports = rt_ports();
$redlock = new RedLock(rt_servers(5, 2.0), 10, 1);
$failures = 0;
$wins = ['one' => 0, 'split' => 0, 'full' => 0];

function slot_values(string $key, int $slot): array
{
    return rt_values("$key:slot:$slot");
}

for ($mask = 0; $mask < 32; $mask++) {
    $in = array_values(array_filter(range(0, 4), fn ($i) => ($mask & (1 << $i)) !== 0));
    $count = count($in);

    // limit 1: slot 0 held by a foreigner on the subset: a lock iff <= 2 are held.
    $key = rt_key("one$mask");
    foreach ($in as $i) {
        rt_redis($ports[$i], 'SET', "$key:slot:0", 'foreign', 'PX', '60000');
    }
    $lock = $redlock->lockSemaphore($key, 1, 10000);
    if (is_array($lock) !== ($count <= 2)) {
        echo "one $mask: ", var_export($lock, true), "\n";
        $failures++;
    }
    $expected = array_map(fn ($i) => in_array($i, $in, true) ? 'foreign' : ($lock ? $lock['token'] : null), range(0, 4));
    if (!rt_eventually(fn () => slot_values($key, 0) === $expected, 10.0)) {
        echo "one $mask: servers hold ", json_encode(slot_values($key, 0)), "\n";
        $failures++;
    }
    if ($lock) {
        $wins['one']++;
        $redlock->unlock($lock);
    }

    // limit 2, slot 0 held on the subset and slot 1 on the others: every server has one free
    // slot, and one of the two always has a quorum (slot 1 when >= 3 are in the subset). The
    // servers that gave the other slot release it.
    $key = rt_key("split$mask");
    for ($i = 0; $i < 5; $i++) {
        rt_redis($ports[$i], 'SET', "$key:slot:" . (in_array($i, $in, true) ? 0 : 1), 'foreign', 'PX', '60000');
    }
    $lock = $redlock->lockSemaphore($key, 2, 10000);
    $want = $count >= 3 ? 1 : 0;
    if (!is_array($lock) || $lock['slot'] !== $want) {
        echo "split $mask: ", var_export($lock, true), "\n";
        $failures++;
    } else {
        $wins['split']++;
        $mine = array_map(fn ($i) => in_array($i, $in, true) === ($want === 1) ? $lock['token'] : 'foreign', range(0, 4));
        $other = array_map(fn ($i) => in_array($i, $in, true) === ($want === 1) ? 'foreign' : null, range(0, 4));
        if (!rt_eventually(fn () => slot_values($key, $want) === $mine && slot_values($key, 1 - $want) === $other, 10.0)) {
            echo "split $mask: slot $want ", json_encode(slot_values($key, $want)), " other ",
                json_encode(slot_values($key, 1 - $want)), "\n";
            $failures++;
        }
        $redlock->unlock($lock);
    }

    // limit 2, both slots held on the subset: a lock iff <= 2 are held; a failed attempt
    // leaves nothing behind (the rollback).
    $key = rt_key("full$mask");
    foreach ($in as $i) {
        rt_redis($ports[$i], 'SET', "$key:slot:0", 'foreign', 'PX', '60000');
        rt_redis($ports[$i], 'SET', "$key:slot:1", 'foreign', 'PX', '60000');
    }
    $lock = $redlock->lockSemaphore($key, 2, 10000);
    if (is_array($lock) !== ($count <= 2)) {
        echo "full $mask: ", var_export($lock, true), "\n";
        $failures++;
    }
    if ($lock) {
        $wins['full']++;
        $redlock->unlock($lock);
    }
    $free = array_map(fn ($i) => in_array($i, $in, true) ? 'foreign' : null, range(0, 4));
    if (!rt_eventually(fn () => slot_values($key, 0) === $free && slot_values($key, 1) === $free, 10.0)) {
        echo "full $mask: left ", json_encode([slot_values($key, 0), slot_values($key, 1)]), "\n";
        $failures++;
    }
    foreach (['one', 'split', 'full'] as $kind) {
        foreach ([0, 1] as $slot) {
            rt_del(rt_key("$kind$mask") . ":slot:$slot");
        }
    }
}
echo json_encode($wins), " failures $failures\n";
?>
--EXPECT--
{"one":16,"split":32,"full":16} failures 0
