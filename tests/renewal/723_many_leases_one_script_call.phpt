--TEST--
autoExtend renews the due leases of an object with one script call per 128 leases, not one EVAL per lease: 300 locks of one object (exclusive, several resources, semaphore slots, shared holders) cost each server a few EVALs per renewal round (INFO commandstats), every lease judged on its own: none lost, a lease taken by a rival lost alone ('renewal_failed'), a key extended longer by hand never shortened, the shared holders still renewed
--EXTENSIONS--
redlock
--FILE--
<?php
/* 704f7c8 sent one EVAL per lease and server: about one EVAL per renewal on each server. */
require __DIR__ . '/../inc/faultproxy.inc';
fp_alarm(60);
$servers = [fp_spawn_server(), fp_spawn_server(), fp_spawn_server()];
$ports = array_map(fn ($s) => $s['port'], $servers);
$list = array_map(fn ($p) => ['127.0.0.1', $p, 2.0], $ports);
/* Under a memory checker every renewal costs far more CPU: fewer leases (still more than 128) and a
 * longer ttl. */
$checker = getenv('USE_ZEND_ALLOC') === '0';
$n = $checker ? 130 : 290;        /* exclusive locks of one resource; 10 more leases of other kinds */
$ttl = $checker ? 3000 : 900;     /* a renewal every ttl / 3 */
/* times the load per core (rt_load_scale(), 1 on a machine no busier than its cores): the renewal thread's share of a
 * core shrinks with it, and the checks below count calls and renewals, not time */
$ttl = (int) ($ttl * rt_load_scale());
$rounds = $checker ? 2 : 5;

function eval_calls(int $port): int
{
    $info = rf_cmd($port, 'INFO', 'commandstats');
    return preg_match('/^cmdstat_eval:calls=(\d+)/m', $info, $m) ? (int) $m[1] : 0;
}

$lost = [];
$r = new RedLock($list, 3, 50, ['autoExtend' => true,
    'onLoss' => function (array $lock, string $why) use (&$lost) { $lost[$why] = ($lost[$why] ?? 0) + 1; }]);
$locks = [];
for ($i = 0; $i < $n; $i++) {
    $locks[] = $r->lock(rt_key("one$i"), $ttl);
}
for ($i = 0; $i < 2; $i++) {
    $locks[] = $r->lock([rt_key("a$i"), rt_key("b$i")], $ttl);
}
for ($i = 0; $i < 4; $i++) {
    $locks[] = $r->lockSemaphore(rt_key('sem'), 4, $ttl);
}
for ($i = 0; $i < 4; $i++) {
    $locks[] = $r->lockShared(rt_key('shared'), $ttl);
}
$total = $n + 10;
echo "all taken: ", var_export(count(array_filter($locks, 'is_array')) === $total, true), "\n";
/* one lease's key made longer (60 s) by hand, still ours: a renewal with its ttl must never shorten it */
$long = $locks[7];
foreach ($ports as $p) {
    rf_cmd($p, 'PEXPIRE', $long['resource'], '60000');
}
/* one lease taken over by a rival everywhere: lost, alone */
$rival = $locks[11];
foreach ($ports as $p) {
    rf_cmd($p, 'SET', $rival['resource'], 'rival', 'PX', '60000');
}

$evals = eval_calls($ports[0]);
$renewals = RedLock::metrics()['renewals'];
/* a few renewal rounds of every lease but the rival's, within ($rounds + 4) renewal periods */
rt_eventually(fn () => RedLock::metrics()['renewals'] - $renewals >= $rounds * ($total - 1),
    ($rounds + 4) * $ttl / 3000 * rt_time_scale());
$renewed = RedLock::metrics()['renewals'] - $renewals;
$calls = eval_calls($ports[0]) - $evals;
/* one call per 128 leases (3 for 296) and one per shared holder (4): 7 a round of 299 renewals */
echo "renewed a few rounds: ", var_export($renewed >= $rounds * ($total - 1), true), "\n";
echo "EVALs per renewal on a server below 0.1: ", var_export($calls < 0.1 * $renewed, true),
    $calls < 0.1 * $renewed ? '' : " ($calls EVALs for $renewed renewals)", "\n";

$held = 0;
foreach ($locks as $i => $lock) {
    $held += $r->validity($lock) > 0 ? 1 : 0;
}
echo "held: ", $held === $total - 1 ? "all but one" : "$held of $total", ", losses told: ", json_encode($lost), "\n";
$pttl = min(array_map(fn ($p) => rf_cmd($p, 'PTTL', $long['resource']), $ports));
echo "the longer key kept: ", var_export($pttl > 30000, true), "\n";
foreach ($locks as $lock) {
    $r->unlock($lock);
}
unset($r); /* RedLockMemory::advance() wants no object on other servers */

/* The same on the memory:// servers (they run the script too), on their clock: 200 leases (130 under a
 * checker), ttl 1.5 s
 * (3 s under a checker), a renewal due every ttl / 3; one extended to 60 s by another object (cut to the
 * ttl if shortened), one taken by a rival. */
$ttl = $checker ? 3000 : 1500;
$count = $checker ? 130 : 200;
$memory = ['memory://a723', 'memory://b723', 'memory://c723'];
$lost = [];
$m = new RedLock($memory, 0, 1, ['autoExtend' => true,
    'onLoss' => function (array $lock, string $why) use (&$lost) { $lost[$why] = ($lost[$why] ?? 0) + 1; }]);
$locks = [];
for ($i = 0; $i < $count; $i++) {
    $locks[] = $m->lock("m$i", $ttl);
}
$other = new RedLock($memory, 0, 1);
$other->extend($locks[3], 60000);
$other->forceUnlock($locks[5]['resource']);
$other->lock($locks[5]['resource'], 60000);
for ($i = 0; $i < 2; $i++) { /* two rounds */
    $before = RedLock::metrics()['renewals'];
    RedLockMemory::advance(intdiv($ttl, 3));
    for ($t = microtime(true); RedLock::metrics()['renewals'] - $before < $count - 1 && microtime(true) - $t < 2.0 * rt_time_scale() * rt_load_scale();) {
        usleep(5000); /* the renewal thread's round on the moved clock, bounded */
    }
}
$held = 0;
foreach ($locks as $lock) {
    $held += $m->validity($lock) > 0 ? 1 : 0;
}
echo "memory: held ", $held === $count - 1 ? "all but one" : "$held of $count", ", losses told: ", json_encode($lost), "\n";
echo "memory: the longer key kept: ", var_export(min(array_map(fn ($s) => RedLockMemory::keys($s)['m3'] ?? -2, $memory)) > 30000, true), "\n";
?>
--EXPECT--
all taken: true
renewed a few rounds: true
EVALs per renewal on a server below 0.1: true
held: all but one, losses told: {"renewal_failed":1}
the longer key kept: true
memory: held all but one, losses told: {"renewal_failed":1}
memory: the longer key kept: true
