--TEST--
lockSemaphore()/lockShared()/fencing: bad arguments and forged lock arrays are a ValueError/TypeError naming the argument; nothing reaches the servers
--EXTENSIONS--
redlock
--FILE--
<?php
require __DIR__ . '/../inc/redlock_test.inc';
$r = new RedLock(rt_servers(5, 2.0), 10, 1);
$key = rt_key('bad');
$cases = [
    'limit 0' => fn () => $r->lockSemaphore($key, 0, 1000),
    'limit -1' => fn () => $r->lockSemaphore($key, -1, 1000),
    'limit 1025' => fn () => $r->lockSemaphore($key, 1025, 1000),
    'semaphore ttl 0' => fn () => $r->lockSemaphore($key, 2, 0),
    'semaphore empty resource' => fn () => $r->lockSemaphore('', 2, 1000),
    'semaphore list resource' => fn () => $r->lockSemaphore([$key], 2, 1000),
    'shared ttl 0' => fn () => $r->lockShared($key, 0),
    'shared empty resource' => fn () => $r->lockShared('', 1000),
    'shared limit string' => fn () => $r->lockShared($key, 'x'),
    'fencing int' => fn () => new RedLock(rt_servers(5), 10, 1, ['fencing' => 1]),
    'fencing string' => fn () => new RedLock(rt_servers(5), 10, 1, ['fencing' => 'yes']),
];
foreach ($cases as $name => $fn) {
    printf("%-28s %s\n", $name, rt_throws($fn));
}

$sem = $r->lockSemaphore($key, 3, 10000);
$shared = $r->lockShared("$key-sh", 10000);
$plain = $r->lock("$key-pl", 10000);
$arrays = [
    'semaphore without slot' => array_diff_key($sem, ['slot' => 0]),
    'semaphore without both' => array_diff_key($sem, ['slot' => 0, 'limit' => 0]),
    'semaphore slot = limit' => ['slot' => 3] + $sem,
    'semaphore slot -1' => ['slot' => -1] + $sem,
    'semaphore limit 2000' => ['limit' => 2000] + $sem,
    'semaphore slot string' => ['slot' => '1'] + $sem,
    'semaphore made shared' => ['shared' => true] + $sem,
    'shared flag removed' => array_diff_key($shared, ['shared' => 0]),
    'shared flag false' => ['shared' => false] + $shared,
    'shared flag int' => ['shared' => 1] + $shared,
    'shared with slot' => $shared + ['limit' => 3, 'slot' => 0],
    'shared with fence' => $shared + ['fence' => 5],
    'plain made shared' => $plain + ['shared' => true],
    'plain with slot' => $plain + ['limit' => 3, 'slot' => 0],
    'plain fence string' => $plain + ['fence' => 'x'],
];
foreach ($arrays as $name => $lock) {
    printf("%-28s %s\n", $name, rt_throws(fn () => $r->unlock($lock)));
    foreach (['extend' => fn () => $r->extend($lock, 1000), 'validity' => fn () => $r->validity($lock)] as $m => $fn) {
        $other = rt_throws($fn);
        if ($other !== str_replace('unlock()', "$m()", rt_throws(fn () => $r->unlock($lock)))) {
            echo "  $m differs: $other\n";
        }
    }
}
echo "the genuine arrays still hold\n";
var_dump($r->validity($sem) > 0, $r->validity($shared) > 0, $r->validity($plain) > 0);
var_dump($r->unlock($sem), $r->unlock($shared), $r->unlock($plain));
?>
--EXPECT--
limit 0                      ValueError: RedLock::lockSemaphore(): Argument #2 ($limit) must be between 1 and 1024
limit -1                     ValueError: RedLock::lockSemaphore(): Argument #2 ($limit) must be between 1 and 1024
limit 1025                   ValueError: RedLock::lockSemaphore(): Argument #2 ($limit) must be between 1 and 1024
semaphore ttl 0              ValueError: RedLock::lockSemaphore(): Argument #3 ($ttl) must be greater than 0
semaphore empty resource     ValueError: RedLock::lockSemaphore(): Argument #1 ($resource) must not be empty
semaphore list resource      TypeError: RedLock::lockSemaphore(): Argument #1 ($resource) must be of type string, array given
shared ttl 0                 ValueError: RedLock::lockShared(): Argument #2 ($ttl) must be greater than 0
shared empty resource        ValueError: RedLock::lockShared(): Argument #1 ($resource) must not be empty
shared limit string          TypeError: RedLock::lockShared(): Argument #2 ($ttl) must be of type int, string given
fencing int                  TypeError: RedLock::__construct(): Argument #4 ($options) option "fencing" must be of type bool, int given
fencing string               TypeError: RedLock::__construct(): Argument #4 ($options) option "fencing" must be of type bool, string given
semaphore without slot       ValueError: RedLock::unlock(): Argument #1 ($lock) must carry both "limit" and "slot" (a lockSemaphore() lock)
semaphore without both       ValueError: RedLock::unlock(): Argument #1 ($lock) ["token"] is a lockSemaphore() token: the array must carry its "limit" and "slot"
semaphore slot = limit       ValueError: RedLock::unlock(): Argument #1 ($lock) ["slot"] must be between 0 and "limit" - 1
semaphore slot -1            ValueError: RedLock::unlock(): Argument #1 ($lock) ["slot"] must be between 0 and "limit" - 1
semaphore limit 2000         ValueError: RedLock::unlock(): Argument #1 ($lock) ["limit"] must be between 1 and 1024
semaphore slot string        TypeError: RedLock::unlock(): Argument #1 ($lock) ["slot"] must be of type int, string given
semaphore made shared        ValueError: RedLock::unlock(): Argument #1 ($lock) ["shared"] is true but ["token"] is not a lockShared() token
shared flag removed          ValueError: RedLock::unlock(): Argument #1 ($lock) ["token"] is a lockShared() token: the array must carry "shared" => true
shared flag false            ValueError: RedLock::unlock(): Argument #1 ($lock) ["token"] is a lockShared() token: the array must carry "shared" => true
shared flag int              TypeError: RedLock::unlock(): Argument #1 ($lock) ["shared"] must be of type bool, int given
shared with slot             ValueError: RedLock::unlock(): Argument #1 ($lock) has "limit" or "slot" but ["token"] is not a lockSemaphore() token
shared with fence            ValueError: RedLock::unlock(): Argument #1 ($lock) ["fence"] belongs to a lock() lock, not to a shared or semaphore one
plain made shared            ValueError: RedLock::unlock(): Argument #1 ($lock) ["shared"] is true but ["token"] is not a lockShared() token
plain with slot              ValueError: RedLock::unlock(): Argument #1 ($lock) has "limit" or "slot" but ["token"] is not a lockSemaphore() token
plain fence string           TypeError: RedLock::unlock(): Argument #1 ($lock) ["fence"] must be of type int, string given
the genuine arrays still hold
bool(true)
bool(true)
bool(true)
bool(true)
bool(true)
bool(true)
