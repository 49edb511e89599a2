--TEST--
Option maxExtensions: extend() past the cap returns false without touching the servers; counted per token, forgotten on unlock
--EXTENSIONS--
redlock
--FILE--
<?php
require __DIR__ . '/../inc/redlock_test.inc';
$key = rt_key();
$r = new RedLock(rt_servers(5, 3.0), 10, 1, ['maxExtensions' => 2]);
$lock = $r->lock($key, 5000);
var_dump(is_array($r->extend($lock, 5000)), is_array($r->extend($lock, 5000)));
var_dump($r->extend($lock, 60000));                 // third: over the cap
var_dump(max(rt_pttls($key)) <= 5000);               // the servers were not asked
// Each token has its own budget.
$other = $r->lock(rt_key('other'), 5000);
var_dump(is_array($r->extend($other, 5000)));
$r->unlock($other);
// unlock() forgets the count: the same token (put back by hand) may be extended again.
var_dump($r->unlock($lock));
foreach (rt_ports() as $port) {
    rt_redis($port, 'SET', $key, $lock['token'], 'PX', '5000');
}
var_dump(is_array($r->extend($lock, 6000)), rt_eventually(fn () => min(rt_pttls($key)) > 5000));
$r->unlock($lock);

// Zero: never extended. Null: unlimited.
$none = new RedLock(rt_servers(5, 3.0), 10, 1, ['maxExtensions' => 0]);
$lock = $none->lock($key, 5000);
var_dump($none->extend($lock, 60000), max(rt_pttls($key)) <= 5000);
$none->unlock($lock);
$free = new RedLock(rt_servers(5, 3.0), 10, 1, ['maxExtensions' => null]);
$lock = $free->lock($key, 5000);
$ok = 0;
for ($i = 0; $i < 10; $i++) {
    $ok += is_array($free->extend($lock, 5000));
}
var_dump($ok);
$free->unlock($lock);
// The cap is per object: another object has not counted this token.
$lock = $r->lock($key, 5000);
$r->extend($lock, 5000);
$r->extend($lock, 5000);
var_dump($r->extend($lock, 5000), is_array($free->extend($lock, 5000)));
$r->unlock($lock);
?>
--EXPECT--
bool(true)
bool(true)
bool(false)
bool(true)
bool(true)
bool(true)
bool(true)
bool(true)
bool(false)
bool(true)
int(10)
bool(false)
bool(true)
