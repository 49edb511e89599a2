--TEST--
Hostile replies: over-long error lines, huge bulk strings, deep and huge arrays, bad integers, RESP3 types and byte-by-byte replies are survived; hiredis parses them, and no reply may hold more than 64 KiB in its buffer
--EXTENSIONS--
redlock
--FILE--
<?php
require __DIR__ . '/../inc/redlock_test.inc';

/** The hiredis the extension was built with, as phpinfo() shows it. */
function hiredis_version(): string
{
    ob_start();
    (new ReflectionExtension('redlock'))->info();
    return preg_match('/hiredis version => (\S+)/', ob_get_clean(), $m) ? $m[1] : 'unknown';
}

$nested = fn (int $depth) => str_repeat("*1\r\n", $depth) . ":1\r\n";
$cases = [
    ['error line of 3000 bytes: its start is reported', "-ERR " . str_repeat('x', 3000) . "\r\n"],
    ['bulk string of 30 kB: read, unexpected', "$30000\r\n" . str_repeat("\r\n", 15000) . "\r\n"],
    ['bulk string of 100 kB: refused before hiredis holds it whole', "$100000\r\n" . str_repeat("\r\n", 50000) . "\r\n"],
    ['arrays nested 8 deep: skipped, unexpected', $nested(8)],
    ['status line of 5000 bytes: not OK', "+" . str_repeat('O', 5000) . "\r\n"],
    ['arrays nested 9 deep: protocol error', $nested(9)],
    ['an integer that is not one', ":12ab\r\n"],
    ['a RESP3 map (hiredis 0.14 refuses the type byte, 1.x parses it and we refuse it)', "%1\r\n+a\r\n+b\r\n"],
    ['a bulk length below -1', "$-2\r\n"],
    ['an array announcing 2 billion elements: a timeout, not an allocation', "*2000000000\r\n"],
];
$steps = [];
foreach ($cases as [$label, $reply]) {
    $steps[] = ['reply' => $reply];
    $steps[] = ['reply' => "+OK\r\n"]; /* the next lock() must work: the stream stayed in step or was reopened */
}
$steps[] = ['reply' => "+OK\r\n", 'bytewise' => true];
$port = rt_spawn_fake_redis($steps);
$redlock = new RedLock([['127.0.0.1', $port, 0.3]], 0, 1);

foreach ($cases as $i => [$label, $reply]) {
    echo "$label\n";
    [$lock, $ms] = rt_timed(fn () => $redlock->lock("hostile:$i", 10000));
    $error = $redlock->getLastErrors()[0];
    if (str_starts_with($label, 'a RESP3 map')) {
        /* hiredis 0.14 refuses the type byte itself; from 1.0 on it parses the map and the
         * extension's own refusal must say why (Debian 13's legs of scripts/matrix.sh run that). */
        $expected = version_compare(hiredis_version(), '1.0', '<')
            ? 'Protocol error, got "%" as reply type byte'
            : 'protocol error: a RESP3 reply (the connection never asked for RESP3)';
        $error = $error === $expected ? 'the refusal of hiredis ' . hiredis_version() : "unexpected: $error";
    }
    var_dump($lock, strlen($error) < 160 ? $error : 'too long: ' . strlen($error), $ms < 1500);
    $lock = $redlock->lock("hostile:$i:after", 10000);
    var_dump(is_array($lock) && $redlock->unlock($lock));
}
echo "+OK sent one byte every 2 ms\n";
$lock = $redlock->lock('hostile:slow', 10000);
var_dump(is_array($lock), $redlock->getLastErrors()[0]);
?>
--EXPECTF--
error line of 3000 bytes: its start is reported
bool(false)
string(159) "ERR xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx"
bool(true)
bool(true)
bulk string of 30 kB: read, unexpected
bool(false)
string(21) "unexpected reply type"
bool(true)
bool(true)
bulk string of 100 kB: refused before hiredis holds it whole
bool(false)
string(77) "protocol error: a reply longer than 64 KiB (a lock's replies are a few bytes)"
bool(true)
bool(true)
arrays nested 8 deep: skipped, unexpected
bool(false)
string(21) "unexpected reply type"
bool(true)
bool(true)
status line of 5000 bytes: not OK
bool(false)
string(21) "unexpected reply type"
bool(true)
bool(true)
arrays nested 9 deep: protocol error
bool(false)
string(71) "protocol error: No support for nested multi bulk replies with depth > 7"
bool(true)
bool(true)
an integer that is not one
bool(false)
string(33) "protocol error: Bad integer value"
bool(true)
bool(true)
a RESP3 map (hiredis 0.14 refuses the type byte, 1.x parses it and we refuse it)
bool(false)
string(%d) "the refusal of hiredis %d.%d.%d"
bool(true)
bool(true)
a bulk length below -1
bool(false)
string(47) "protocol error: Bulk string length out of range"
bool(true)
bool(true)
an array announcing 2 billion elements: a timeout, not an allocation
bool(false)
string(7) "timeout"
bool(true)
bool(true)
+OK sent one byte every 2 ms
bool(true)
NULL
