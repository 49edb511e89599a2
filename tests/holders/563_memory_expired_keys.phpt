--TEST--
memory:// servers drop expired keys (issue 24, suspected): 20,000 abandoned locks of 20,000 names (never unlocked, their ttl passed on the test clock) leave the process' resident memory within 3 MB of where 1,000 left it (f334b16 kept every one until reset(): about 9 MB more)
--EXTENSIONS--
redlock
--SKIPIF--
<?php
if (PHP_OS_FAMILY !== 'Linux') die('skip reads /proc/self/status');
if (getenv('USE_ZEND_ALLOC') === '0') die('skip [memory checker] resident memory under a checker says nothing of the store');
?>
--FILE--
<?php
$servers = ['memory://h563a', 'memory://h563b', 'memory://h563c'];
$r = new RedLock($servers, 0, 1);
$rss = function (): int {
    preg_match('/^VmRSS:\s+(\d+) kB/m', file_get_contents('/proc/self/status'), $m);
    return (int) $m[1];
};
$abandon = function (int $from, int $to) use ($r) {
    for ($i = $from; $i < $to; $i++) {
        $r->lock("abandoned:$i:" . str_repeat('x', 64), 50);
        if ($i % 500 === 499) {
            RedLockMemory::advance(100); // every lock so far has expired
        }
    }
};
$abandon(0, 1000);
$before = $rss();
$abandon(1000, 20000);
$grown = $rss() - $before;
echo $grown < 3072 ? "bounded\n" : "grew by $grown kB\n";
var_dump(count(RedLockMemory::keys('h563a')) <= 500);
RedLockMemory::reset();
?>
--EXPECT--
bounded
bool(true)
