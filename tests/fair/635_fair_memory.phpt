--TEST--
fair: on memory:// servers a fair lock() and lockSemaphore() queue and win (the store runs the fair scripts: RL_SCRIPT_FAIR_*, their queue a sorted set); before, every fair script was refused there, and a waiter got false after waitTimeout
--EXTENSIONS--
redlock
--FILE--
<?php
$servers = ['memory://f635a', 'memory://f635b', 'memory://f635c'];
function names(string $server): string {
    $keys = array_keys(RedLockMemory::keys($server));
    sort($keys);
    return implode(' ', $keys);
}
$holder = new RedLock($servers, options: ['fair' => true, 'waitTimeout' => 3000]);
$waiter = new RedLock($servers, options: ['fair' => true, 'waitTimeout' => 3000]);

$a = $holder->lock('res', 300);
echo "uncontended: ", is_array($a) ? 'won' : 'lost', "; keys: ", names('f635a'), "\n";
$t = microtime(true);
$b = $waiter->lock('res', 10000); // queued behind a, which lets its 300 ms lapse
echo "queued: ", is_array($b) ? 'won' : 'lost', ", ", microtime(true) - $t >= 0.2 ? "after a's ttl" : 'too soon', "\n";
foreach (['f635a', 'f635b', 'f635c'] as $s) {
    echo "$s: ", names($s), "\n";
}
var_dump($waiter->unlock($b));
echo "after unlock: ", names('f635a'), "\n";

$s1 = $holder->lockSemaphore('sem', 1, 300);
echo "slot: ", is_array($s1) ? 'won' : 'lost', "\n";
$s2 = $waiter->lockSemaphore('sem', 1, 10000);
echo "queued slot: ", is_array($s2) ? 'won' : 'lost', "; keys: ", names('f635b'), "\n";
var_dump($waiter->unlock($s2));
echo "after unlock: ", names('f635b'), "\n";
?>
--EXPECT--
uncontended: won; keys: res
queued: won, after a's ttl
f635a: res res:fair:ticket
f635b: res res:fair:ticket
f635c: res res:fair:ticket
bool(true)
after unlock: res:fair:ticket
slot: won
queued slot: won; keys: res:fair:ticket sem:semfair:ticket sem:slot:0
bool(true)
after unlock: res:fair:ticket sem:semfair:ticket
