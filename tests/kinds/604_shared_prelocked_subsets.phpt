--TEST--
lockShared() and lock() over the 32 subsets of 5 servers: a foreign lock() holder on a subset refuses shared iff it holds >= 3; a foreign shared holder never refuses shared and refuses lock() iff on >= 3; rollbacks leave nothing; foreign holders untouched
--EXTENSIONS--
redlock
--FILE--
<?php
require __DIR__ . '/../inc/redlock_test.inc';
$ports = rt_ports();
$r = new RedLock(rt_servers(5, 2.0), 10, 1);
$failures = 0;
$wins = ['shared over lock' => 0, 'lock over shared' => 0, 'shared over shared' => 0];

function hash_field(int $port, string $key, string $field): mixed
{
    $type = rt_redis($port, 'TYPE', $key);
    return $type === 'hash' ? (rt_redis($port, 'HGET', $key, $field) !== null) : $type;
}

for ($mask = 0; $mask < 32; $mask++) {
    $in = array_values(array_filter(range(0, 4), fn ($i) => ($mask & (1 << $i)) !== 0));
    $count = count($in);

    // A foreign lock() holder (a string) on the subset.
    $key = rt_key("x$mask");
    foreach ($in as $i) {
        rt_redis($ports[$i], 'SET', $key, 'foreign', 'PX', '60000');
    }
    $lock = $r->lockShared($key, 10000);
    if (is_array($lock) !== ($count <= 2)) {
        echo "shared over lock $mask: ", var_export($lock, true), "\n";
        $failures++;
    }
    $expected = array_map(fn ($i) => in_array($i, $in, true) ? 'string' : ($lock ? true : 'none'), range(0, 4));
    $seen = fn () => array_map(fn ($i) => hash_field($ports[$i], $key, $lock ? $lock['token'] : 'x'), range(0, 4));
    if (!rt_eventually(fn () => $seen() === $expected, 10.0)) {
        echo "shared over lock $mask: servers ", json_encode($seen()), "\n";
        $failures++;
    }
    if ($lock) {
        $wins['shared over lock']++;
        $r->unlock($lock);
    }
    if (!rt_eventually(fn () => rt_values($key) === array_map(fn ($i) => in_array($i, $in, true) ? 'foreign' : null, range(0, 4)), 10.0)) {
        echo "shared over lock $mask: after unlock ", json_encode(rt_values($key)), "\n";
        $failures++;
    }
    rt_del($key);

    // A foreign shared holder (a hash) on the subset.
    $key = rt_key("s$mask");
    foreach ($in as $i) {
        [$sec, $usec] = rt_redis($ports[$i], 'TIME');
        rt_redis($ports[$i], 'HSET', $key, 'foreign', (string) ((int) $sec * 1000 + intdiv((int) $usec, 1000) + 60000));
        rt_redis($ports[$i], 'PEXPIRE', $key, '60000');
    }
    $x = $r->lock($key, 10000);
    if (is_array($x) !== ($count <= 2)) {
        echo "lock over shared $mask: ", var_export($x, true), "\n";
        $failures++;
    }
    if ($x) {
        $wins['lock over shared']++;
        $r->unlock($x);
    }
    usleep(20000); // a lock() SET still in flight lands, and its rollback after it
    $shared = $r->lockShared($key, 10000);
    if (!is_array($shared)) {
        echo "shared over shared $mask: ", var_export($shared, true), "\n";
        $failures++;
    } else {
        $wins['shared over shared']++;
        $all = fn () => array_map(fn ($p) => [hash_field($p, $key, 'foreign'), hash_field($p, $key, $shared['token'])], $ports);
        $want = array_map(fn ($i) => [in_array($i, $in, true), true], range(0, 4));
        if (!rt_eventually(fn () => $all() === $want, 10.0)) {
            echo "shared over shared $mask: ", json_encode($all()), "\n";
            $failures++;
        }
        $r->unlock($shared);
        $after = fn () => array_map(fn ($p) => hash_field($p, $key, 'foreign'), $ports);
        $want = array_map(fn ($i) => in_array($i, $in, true) ? true : 'none', range(0, 4));
        if (!rt_eventually(fn () => $after() === $want, 10.0)) {
            echo "shared over shared $mask: after unlock ", json_encode($after()), "\n";
            $failures++;
        }
    }
    rt_del($key);
}
echo json_encode($wins), " failures $failures\n";
?>
--EXPECT--
{"shared over lock":16,"lock over shared":16,"shared over shared":32} failures 0
