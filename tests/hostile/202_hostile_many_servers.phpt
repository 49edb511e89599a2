--TEST--
Hostile input: 64 servers, mostly with nothing listening: quick false; 64 all dead: quick false; no fd leak
--EXTENSIONS--
redlock
--FILE--
<?php
require __DIR__ . '/../inc/reliability.inc';
$key = rt_key();
$dead = [];
while (count($dead) < 64) {
    $dead[rt_free_port()] = true;
}
$dead = array_keys($dead);
$openFds = fn () => count(scandir('/proc/self/fd'));

echo "5 live + 59 dead (quorum 33)\n";
$ports = array_merge(rt_ports(), array_slice($dead, 0, 59));
// persistent off: the pool would rightly keep the live servers' connections after unset().
$redlock = new RedLock(rf_list($ports, 0.5), 50, 2, ['persistent' => false]);
$before = $openFds();
[$lock, $ms] = rt_timed(fn () => $redlock->lock($key, 10000));
var_dump($lock, $ms < 2000);
usleep(50000);
var_dump(rf_settled_values($key, array_fill(0, 5, null)) === array_fill(0, 5, null));
[$ok, $ms] = rt_timed(fn () => $redlock->unlock(['resource' => $key, 'token' => str_repeat('a', 32)]));
var_dump($ok, $ms < 2000);

echo "64 dead\n";
$all = new RedLock(rf_list($dead, 0.5), 50, 3, ['persistent' => false]);
[$lock, $ms] = rt_timed(fn () => $all->lock($key, 10000));
var_dump($lock, $ms < 2000);

echo "descriptors: at most one per listed server, all closed with the object\n";
for ($i = 0; $i < 20; $i++) {
    $redlock->lock($key, 10000);
    $all->lock($key, 10000);
}
/* +5: the test's own links to the shared servers */
var_dump($openFds() - $before <= 64 + 64 + 5);
unset($redlock, $all);
var_dump($openFds() - $before <= 5);
?>
--EXPECT--
5 live + 59 dead (quorum 33)
bool(false)
bool(true)
bool(true)
bool(false)
bool(true)
64 dead
bool(false)
bool(true)
descriptors: at most one per listed server, all closed with the object
bool(true)
bool(true)
