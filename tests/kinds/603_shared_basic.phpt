--TEST--
lockShared(): many shared holders at once, never with a lock() holder; each expires on its own ttl; unlock/extend/validity act on our holder only; exclusive calls on the hash vote a clean no
--EXTENSIONS--
redlock
--FILE--
<?php
require __DIR__ . '/../inc/redlock_test.inc';
$ports = rt_ports();
$r = new RedLock(rt_servers(5, 2.0), 10, 1);
$key = rt_key('sh');

/** A majority said "taken", and no server answered with an error (WRONGTYPE). The checks below hold whatever a
 * loaded machine does to the stragglers: the promise is a majority's. */
function clean_no(array $errors): bool
{
    $taken = count(array_filter($errors, fn ($e) => $e === 'taken'));
    return $taken >= 3 && !array_filter($errors, fn ($e) => is_string($e) && preg_match('/ERR|WRONGTYPE/', $e));
}

echo "three shared holders\n";
$a = $r->lockShared($key, 10000);
$b = $r->lockShared($key, 20000);
$c = $r->lockShared($key, 10000);
var_dump($a['shared'], is_array($b), is_array($c), $a['token'][0]);
// (a majority for sure; a server whose first connection was still opening when the quorum was reached gets
// the scripts with the next call)
var_dump(rt_eventually(fn () => count(array_filter($ports, fn ($p) => rt_redis($p, 'HLEN', $key) === 3)) >= 3, 10.0));
echo "lock() and a multi-key lock() are refused while they hold\n";
var_dump($r->lock($key, 10000), $r->lock([$key, "$key-other"], 10000));
echo "no WRONGTYPE anywhere: the exclusive scripts vote a clean no on the hash\n";
// (unlock() by DELEX, on Redis >= 8.4, answers "ERR Key should be of string type if conditions are specified"
// on the hash, DELIFEQ on Valkey >= 9 possibly WRONGTYPE: still a no vote)
$native = fn ($e) => is_string($e) && preg_match('/^(WRONGTYPE|ERR Key should be of string type)/', $e) ? 'taken' : $e;
var_dump($r->unlock(['resource' => $key, 'token' => str_repeat('a', 32)]), clean_no(array_map($native, $r->getLastErrors())));
var_dump($r->extend(['resource' => $key, 'token' => str_repeat('a', 32)], 1000));
var_dump($r->validity(['resource' => $key, 'token' => str_repeat('a', 32)]));
echo "validity and extend act on our holder\n";
$va = $r->validity($a);
$vb = $r->validity($b);
var_dump($va > 0 && $va <= 10000, $vb > 10000 && $vb <= 20000);
$e = $r->extend($a, 30000);
var_dump($e['shared'], $e['token'] === $a['token'], $r->validity($a) > 20000);
var_dump(rt_eventually(fn () => count(array_filter($ports, fn ($p) => rt_redis($p, 'PTTL', $key) > 20000)) >= 3, 10.0));
echo "unlocking one leaves the others\n";
var_dump($r->unlock($a), $r->unlock($a));
var_dump($r->validity($a), $r->validity($b) > 0, $r->validity($c) > 0);
var_dump($r->lock($key, 10000));
echo "after the last one, lock() wins; lockShared() is refused while it holds\n";
var_dump($r->unlock($b), $r->unlock($c));
var_dump(rt_eventually(fn () => count(array_filter($ports, fn ($p) => rt_redis($p, 'EXISTS', $key) === 0)) >= 3, 10.0));
$x = $r->lock($key, 10000);
var_dump(is_array($x), $r->lockShared($key, 10000), clean_no($r->getLastErrors()));
var_dump($r->unlock($x));

echo "each shared holder expires on its own ttl; the key lives as long as the latest\n";
$short = $r->lockShared($key, 200);
$long = $r->lockShared($key, 30000);
var_dump(rt_eventually(fn () => $r->validity($short) === false, 10.0));
var_dump($r->validity($long) > 0, $r->lock($key, 1000));
echo "the expired holder is pruned by a later shared acquisition\n";
// (validity() says false a little before the field's deadline: drift; so acquire until it was past it everywhere)
var_dump(rt_eventually(function () use ($r, $key, $ports, $short) {
    $third = $r->lockShared($key, 10000);
    $pruned = rt_eventually(fn () => array_map(fn ($p) => rt_redis($p, 'HEXISTS', $key, $short['token']), $ports)
        === array_fill(0, 5, 0), 0.5);
    $r->unlock($third);
    return $pruned;
}, 20.0));
var_dump($r->unlock($long), $r->unlock($short));

echo "a shared holder left alone expires and lock() then wins\n";
$gone = $r->lockShared($key, 150);
var_dump(rt_eventually(fn () => is_array($y = $r->lock($key, 10000)) && $r->unlock($y), 10.0));
?>
--EXPECT--
three shared holders
bool(true)
bool(true)
bool(true)
string(1) "s"
bool(true)
lock() and a multi-key lock() are refused while they hold
bool(false)
bool(false)
no WRONGTYPE anywhere: the exclusive scripts vote a clean no on the hash
bool(false)
bool(true)
bool(false)
bool(false)
validity and extend act on our holder
bool(true)
bool(true)
bool(true)
bool(true)
bool(true)
bool(true)
unlocking one leaves the others
bool(true)
bool(false)
bool(false)
bool(true)
bool(true)
bool(false)
after the last one, lock() wins; lockShared() is refused while it holds
bool(true)
bool(true)
bool(true)
bool(true)
bool(false)
bool(true)
bool(true)
each shared holder expires on its own ttl; the key lives as long as the latest
bool(true)
bool(true)
bool(false)
the expired holder is pruned by a later shared acquisition
bool(true)
bool(true)
bool(false)
a shared holder left alone expires and lock() then wins
bool(true)
