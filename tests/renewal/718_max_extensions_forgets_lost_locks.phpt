--TEST--
maxExtensions: the per-lock cap forgets locks that can no longer be extended; 15,000 locks taken, lost and refused an extend() (the README's `extend(...) ?: throw` path in a long-running worker) leave no memory behind once their ttl has passed (265a4b9: +2.5 MB for 15,000, here about 0)
--EXTENSIONS--
redlock
--SKIPIF--
<?php
if (getenv('USE_ZEND_ALLOC') === '0') {
    die('skip [memory checker] RSS under memcheck or ASan is the checker\'s own; their leak checks cover the registry there');
}
?>
--FILE--
<?php
require __DIR__ . '/../inc/redlock_test.inc';
function rss_kb(): int
{
    foreach (file('/proc/self/status') as $line) {
        if (str_starts_with($line, 'VmRSS')) {
            return (int) preg_replace('/\D/', '', $line);
        }
    }
    return 0;
}
$r = new RedLock(rt_servers(1), 0, 1, ['maxExtensions' => 2]);
$port = rt_ports()[0];
$round = function (string $tag) use ($r, $port) {
    for ($i = 0; $i < 5000; $i++) {
        $key = rt_key("$tag-$i");
        $lock = $r->lock($key, 200);             // 200 ms: a busy machine may spend 30 ms on one lock()
        rt_redis($port, 'DEL', $key);            // lost
        if ($r->extend($lock, 30) !== false) {   // so the extend fails
            echo "extend succeeded\n";
        }
    }
    usleep(250000);                               // every one of them has expired
};
$round('warm'); // the registry's table and the allocator reach their size
$rss = rss_kb();
$zend = memory_get_usage();
foreach (['a', 'b', 'c'] as $tag) {
    $round($tag);
}
$grown = rss_kb() - $rss;
echo "RSS grew by less than 1 MB: ", var_export($grown < 1024, true), ($grown < 1024 ? '' : " ($grown kB)"), "\n";
echo "Zend heap grew by less than 64 kB: ", var_export(memory_get_usage() - $zend < 65536, true), "\n";
?>
--EXPECT--
RSS grew by less than 1 MB: true
Zend heap grew by less than 64 kB: true
