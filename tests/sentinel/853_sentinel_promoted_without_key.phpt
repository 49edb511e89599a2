--TEST--
Sentinel members: a failover to a replica that never got the key (asynchronous replication lost the write) is like a restart without persistence: that member counts as not holding the lock for validity() and extend(), the lock lives on the other two, and the quorum's extend() (this one or, when that member answered after the quorum, the next) writes the key back there (self-healing, docs/design/renewal.md#self-healing-renewal); a rival then gets no member and fails
--EXTENSIONS--
redlock
--SKIPIF--
<?php require __DIR__ . '/../inc/sentinel.inc'; sn_skipif(); ?>
--FILE--
<?php
require __DIR__ . '/../inc/sentinel.inc';
$members = sn_start(3, 2);
$key = rt_key();
$servers = array_map(fn ($m) => sn_uri($m), $members);
$r = new RedLock($servers, 10, 1);
$lock = $r->lock($key, 10000);
var_dump(is_array($lock));

/* The write the replica lost: removed there by hand. */
$replica = $members[0]['replica']['port'];
rt_redis($replica, 'CONFIG', 'SET', 'replica-read-only', 'no');
rt_redis($replica, 'DEL', $key);
rt_redis($replica, 'CONFIG', 'SET', 'replica-read-only', 'yes');
$old = $members[0]['master']['port'];
$new = sn_failover($members[0]);
rt_redis($old, 'REPLICAOF', '127.0.0.1', (string) $new); // what Sentinel sends a demoted master
rt_redis($old, 'CLIENT', 'KILL', 'TYPE', 'normal');

$validity = $r->validity($lock);
var_dump($validity > 0 && $validity < 10000);
/* member 0 alone: it does not hold the lock */
$solo = new RedLock([$servers[0]], 10, 1);
var_dump($solo->validity($lock), $solo->getLastErrors()[0], $solo->extend($lock, 20000));
$extended = is_array($r->extend($lock, 20000));
/* The write back is sent without waiting for its reply, and member 0 (asking its sentinels again)
 * may answer after the quorum was decided: then the next extend() writes it back. */
$back = 0;
for ($i = 0; $i < 5 && $back === 0; $i++) {
    usleep(20000);
    $back = rt_redis($new, 'EXISTS', $key);
    if ($back === 0) {
        $extended = $extended && is_array($r->extend($lock, 20000));
    }
}
var_dump($extended, $back);
$rival = new RedLock($servers, 10, 1);
var_dump($rival->lock($key, 10000));
var_dump($r->unlock($lock));
?>
--EXPECT--
bool(true)
bool(true)
bool(false)
string(5) "taken"
bool(false)
bool(true)
int(1)
bool(false)
bool(true)
