--TEST--
autoExtend on memory:// servers: a renewal batch of 128 several-resource leases (six keys each: one script call of 1,155 arguments) is served, not cut off (a memory server parsed at most 1,026 arguments and dropped the connection: an io error on every server each round, every lease then renewed alone)
--EXTENSIONS--
redlock
--FILE--
<?php
require __DIR__ . '/../inc/redlock_test.inc'; // rt_load_scale()
$memory = ['memory://a726', 'memory://b726', 'memory://c726'];
$lost = [];
$m = new RedLock($memory, 0, 1, ['autoExtend' => true,
    'onLoss' => function (array $lock, string $why) use (&$lost) { $lost[$why] = ($lost[$why] ?? 0) + 1; }]);
$locks = [];
for ($i = 0; $i < 130; $i++) {
    $locks[] = $m->lock(array_map(fn ($j) => "r$i-$j", range(1, 6)), 1500);
}
echo "taken: ", count(array_filter($locks, 'is_array')), "\n";
$before = RedLock::metrics()['renewals'];
RedLockMemory::advance(500); /* every lease due: one batch */
for ($t = microtime(true); RedLock::metrics()['renewals'] - $before < 130 && microtime(true) - $t < 5.0 * rt_load_scale();) {
    usleep(5000); /* the renewal thread's round on the moved clock, bounded */
}
echo "renewed: ", RedLock::metrics()['renewals'] - $before >= 130 ? "all" : "not all", "\n";
// the batch cut off is an io error (the connection dropped) on every server; a timeout is the machine's load
// (under valgrind at a load of 14 one server's answer to the batch took longer than its timeout)
$cut = array_filter(RedLock::metrics()['server_errors'], fn ($e) => $e['io'] > 0 || $e['error'] > 0 || $e['connect'] > 0);
echo "servers that dropped or refused the batch: ", json_encode($cut), "\n";
echo "lost: ", json_encode($lost), "\n";
foreach ($locks as $lock) {
    $m->unlock($lock);
}
?>
--EXPECT--
taken: 130
renewed: all
servers that dropped or refused the batch: []
lost: []
