--TEST--
RedLock::fromCluster(): one member per master (3 here), each member's key on its own master under a hash tag, a quorum of masters; a rival fromCluster() object is refused; the slot of a member's tag moved to the master of another member: the object places every member by its one map (the moved one on another master, others perhaps under new tags): held while a quorum kept its placement, lost and saying so when not, never held by a rival; a failover of a member's master: a tracked lock's vote from the promoted replica is not counted until adopted; bad seeds and non-cluster seeds are refused
--EXTENSIONS--
redlock
--SKIPIF--
<?php require __DIR__ . '/../inc/cluster.inc'; echo cl_skip_reason();
--FILE--
<?php
require __DIR__ . '/../inc/cluster.inc';
$timeout = min(60.0, 2.0 * rt_time_scale());
$seeds = getenv('REDLOCK_TEST_CLUSTER') . "?timeout=$timeout";
$r = RedLock::fromCluster($seeds, 20, 1, ['maxExtensions' => 100]); // tracked: the lease keeps each vote's master
$rival = RedLock::fromCluster(explode(',', getenv('REDLOCK_TEST_CLUSTER')), 20, 1);
$masters = cl_masters();
$resource = rt_key('res');
cl_warm($r); // the keys of the lock below are read on every master: its connections open first
$l = $r->lock($resource, 30000);
echo 'locked: ', is_array($l) ? 'yes' : 'no', ', members: ', count($r->getLastErrors()), "\n";
// the lock returns on a quorum: the last member's write may still be on its way
rt_eventually(fn () => !in_array(null, array_map(fn ($p) => cl_member_key($p, $resource), $masters), true), 2.0 * rt_time_scale() * rt_load_scale());
$keys = array_map(fn ($p) => cl_member_key($p, $resource), $masters);
echo 'one key per master, distinct tags: ', count(array_unique(array_filter($keys))) === count($masters) ? 'yes' : json_encode($keys), "\n";
echo 'each holds our token: ', json_encode(array_map(fn ($p, $k) => rt_redis($p, 'GET', $k) === $l['token'], $masters, $keys)), "\n";
echo 'rival: ', $rival->lock($resource, 1000) ? 'TOOK IT' : 'refused', "\n";

// which member keeps each key: its tag "{rl<i>.<k>}" (masters[] go by port)
$member = fn (string $key) => (int) substr($key, 3, strpos($key, '.') - 3);
// the slot of the first master's member tag moves to the second master
$slot = cl_slot($keys[0]);
$moved = $member($keys[0]);
cl_move_slot($slot, $masters[0], $masters[1]);
// every member places by one map (test 879): the moved member stays with its key (it moved with the slot) on
// another master (not counted until healed), and each member placed anew by the new map is a restart: the
// lock stays held when one of three changed, is lost (and says so) when two did; never held by a rival
$fresh = RedLock::fromCluster($seeds, 20, 1);
$probe = rt_key('probe');
$fresh->lock($probe, 30000) ?: rt_fatal('probe not locked');
rt_eventually(fn () => !in_array(null, array_map(fn ($p) => cl_member_key($p, $probe), $masters), true), 2.0 * rt_time_scale() * rt_load_scale());
$tag = fn (?string $key) => $key === null ? null : substr($key, 0, strpos($key, '}') + 1);
$was = array_combine(array_map($tag, $keys), $masters);                       // tag => master, before
$now = array_combine(array_map(fn ($p) => $tag(cl_member_key($p, $probe)), $masters), $masters);
$changed = count(array_filter(array_keys($was), fn ($t) => ($now[$t] ?? null) !== $was[$t]));
for ($i = 0; $i < 3; $i++) { // the calls that meet the move (a MOVED read after the quorum counts from the next)
    $r->validity($l);
}
$held = $r->validity($l) !== false;
echo 'members changed by the move: ', $changed >= 1 && $changed <= 3 ? 'some' : $changed, ', the holder says held exactly when a quorum did not: ',
    $held === ($changed < 2) ? 'yes' : json_encode([$changed, $held, $r->getLastErrors()]), "\n";
echo 'rival while the holder says held: ', $held && $rival->lock($resource, 1000) ? 'TOOK IT' : 'never', "\n";
$r->unlock($l);
$resource = rt_key('res2');
cl_warm($r); // the member the move placed anew may be on a new connection, still opening when a quorum answered
$l = $r->lock($resource, 30000) ?: rt_fatal('not locked again');
rt_eventually(fn () => !in_array(null, array_map(fn ($p) => cl_member_key($p, $resource), $masters), true), 2.0 * rt_time_scale() * rt_load_scale());
$keys = array_map(fn ($p) => cl_member_key($p, $resource), $masters);
echo 'locked again, one key per master: ', count(array_unique(array_filter($keys))) === count($masters) ? 'yes' : json_encode($keys), "\n";
echo 'rival: ', $rival->lock($resource, 1000) ? 'TOOK IT' : 'refused', "\n";

// a failover of the third master: the promoted replica holds member 2's key by replication, but is
// another master than the one that granted it
$new = cl_failover($masters[2]);
foreach (array_slice($masters, 0, 2) as $port) {
    rt_redis($port, 'CLIENT', 'PAUSE', (string) (int) (min(1000, 400 * rt_load_scale()) * rt_time_scale()));
}
var_dump($r->validity($l) > 0);
echo 'the failed-over member: ', $r->getLastErrors()[$member($keys[2])], "\n";
var_dump(is_array($r->extend($l, 30000)));
echo 'rival: ', $rival->lock($resource, 1000) ? 'TOOK IT' : 'refused', "\n";
var_dump($r->unlock($l));
// unlock returns on a quorum: the last member's release may still be on its way
$read = fn () => array_map(fn ($p) => cl_member_key($p, $resource), [$masters[0], $masters[1], $new]);
rt_eventually(fn () => $read() === [null, null, null], 2.0 * rt_time_scale() * rt_load_scale());
echo 'released: ', json_encode($read()), "\n";

foreach (['127.0.0.1:' . rt_ports()[0], ['x:y'], 'cluster://127.0.0.1:' . $masters[0] . '?member=1', 42] as $bad) {
    try {
        RedLock::fromCluster($bad, 20, 1);
        echo "accepted\n";
    } catch (Throwable $e) {
        echo get_class($e), ': ', preg_replace('/127\.0\.0\.1:\d+/', '127.0.0.1:PORT', $e->getMessage()), "\n";
    }
}
?>
--EXPECT--
locked: yes, members: 3
one key per master, distinct tags: yes
each holds our token: [true,true,true]
rival: refused
members changed by the move: some, the holder says held exactly when a quorum did not: yes
rival while the holder says held: never
locked again, one key per master: yes
rival: refused
bool(true)
the failed-over member: the master changed since the lock was taken: not counted until healed
bool(true)
rival: refused
bool(true)
released: [null,null,null]
RedLockException: RedLock::fromCluster(): cluster: no slot map (127.0.0.1:PORT: not a cluster node: ERR This instance has cluster support disabled)
ValueError: RedLock::fromCluster(): Argument #1 ($seeds) server #0 seed #0 must be "host:port" (URI port must be an integer between 1 and 65535)
ValueError: RedLock::fromCluster(): Argument #1 ($seeds) must not name a member: fromCluster() gives each master its own
TypeError: RedLock::fromCluster(): Argument #1 ($seeds) must be of type array|string, int given
