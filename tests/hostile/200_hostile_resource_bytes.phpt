--TEST--
Hostile input: resource names with NUL bytes, non-ASCII, invalid UTF-8 and 1 MiB lock the exact binary key
--EXTENSIONS--
redlock
--FILE--
<?php
require __DIR__ . '/../inc/reliability.inc';
$redlock = new RedLock(rt_servers(5, 5.0));
$base = rt_key();
$names = [
    'nul inside' => "$base\0after-nul",
    'nul at end' => "$base\0",
    'only nul' => "\0",
    'utf-8' => "$base:ключ:鍵:🔒",
    'invalid utf-8' => "$base:\xff\xfe\xc0\x80",
    'crlf' => "$base\r\n*1\r\n$4\r\nPING\r\n",
    '1 MiB' => $base . str_repeat("\x01\0x", 349526),
];
foreach ($names as $label => $name) {
    rt_del($name);
    $lock = $redlock->lock($name, 10000);
    $exact = $lock !== false && $lock['resource'] === $name
        && rf_settled_values($name, array_fill(0, 5, $lock['token'])) === array_fill(0, 5, $lock['token']);
    /* the bytes before a NUL must not have been locked instead */
    $cut = strstr($name, "\0", true);
    $prefixFree = $cut === false || $cut === '' || rt_values_are($cut, array_fill(0, 5, null));
    $unlocked = $lock !== false && $redlock->unlock($lock) && rf_settled_values($name, array_fill(0, 5, null)) === array_fill(0, 5, null);
    printf("%-13s +%7d bytes: exact key %s, prefix untouched %s, unlocked %s\n", $label, strlen($name) - strlen($base),
        var_export($exact, true), var_export($prefixFree, true), var_export($unlocked, true));
}

echo "a lock on one name does not block a name that differs after a NUL\n";
$a = $redlock->lock("$base\0a", 10000);
$b = $redlock->lock("$base\0b", 10000);
var_dump(is_array($a), is_array($b), $redlock->unlock($a), $redlock->unlock($b));
?>
--EXPECTF--
nul inside    +     10 bytes: exact key true, prefix untouched true, unlocked true
nul at end    +      1 bytes: exact key true, prefix untouched true, unlocked true
only nul      + %s bytes: exact key true, prefix untouched true, unlocked true
utf-8         +     18 bytes: exact key true, prefix untouched true, unlocked true
invalid utf-8 +      5 bytes: exact key true, prefix untouched true, unlocked true
crlf          +     16 bytes: exact key true, prefix untouched true, unlocked true
1 MiB         +1048578 bytes: exact key true, prefix untouched true, unlocked true
a lock on one name does not block a name that differs after a NUL
bool(true)
bool(true)
bool(true)
bool(true)
