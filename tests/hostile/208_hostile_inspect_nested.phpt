--TEST--
Hostile replies to inspect() (issue 32, item 11): the readers' tokens (HKEYS inside EXEC's reply) are kept one level down, at most 16384 of one reply: a server listing 100 readers is read (holders 100); one listing 20000 has its answer refused as a protocol error naming the bound (no quorum: null), bounded memory, and the next call works on a new connection
--EXTENSIONS--
redlock
--FILE--
<?php
require __DIR__ . '/../inc/redlock_test.inc';
$readers = function (int $n): string {
    $out = "*6\r\n+hash\r\n:5000\r\n*$n\r\n";
    for ($i = 0; $i < $n; $i++) {
        $out .= "$48\r\n" . sprintf('s%047d', $i) . "\r\n";
    }
    return $out . "$-1\r\n$-1\r\n:0\r\n"; // GET key:fence, GET key, ZCARD key:fair
};
$port = rt_spawn_fake_redis([['on' => 'EXEC', 'reply' => $readers(100)], ['on' => 'EXEC', 'reply' => $readers(20000)]]);
$r = new RedLock([['127.0.0.1', $port, 2.0 * rt_time_scale()]], 0, 1);
$i = $r->inspect('shared');
echo "100 readers: held ", var_export($i['held'], true), ", kind {$i['kind']}, holders {$i['holders']}\n";
$rss = fn () => preg_match('/VmRSS:\s+(\d+)/', (string) file_get_contents('/proc/self/status'), $m) ? (int) $m[1] : 0;
$before = $rss();
var_dump($r->inspect('shared'));
echo $r->getLastErrors()[0], "\n";
echo 'grew by less than 16 MiB: ', var_export($rss() - $before < 16384, true), "\n";
$lock = $r->lock('after', 10000);
var_dump(is_array($lock));
?>
--EXPECT--
100 readers: held true, kind shared, holders 100
NULL
protocol error: more than 16384 nested strings in one reply
grew by less than 16 MiB: true
bool(true)
