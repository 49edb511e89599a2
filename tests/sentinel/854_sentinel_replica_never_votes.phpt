--TEST--
Sentinel members: a replica never votes: when the sentinels name a replica (an answer out of date), ROLE on connect refuses it for lock() and for validity() though it holds the key by replication; a user without ROLE gets READONLY from lock(), and the member asks its sentinels again on the next call, which then reaches the master
--EXTENSIONS--
redlock
--FILE--
<?php
require __DIR__ . '/../inc/sentinel.inc';
$master = rt_spawn_server(['--repl-diskless-sync-delay', '0']);
$replica = rt_spawn_server(['--repl-diskless-sync-delay', '0', '--replicaof', '127.0.0.1', (string) $master['port']]);
$deadline = microtime(true) + 20;
while (!str_contains((string) rt_redis($replica['port'], 'INFO', 'replication'), 'master_link_status:up')) {
    microtime(true) < $deadline || rt_fatal('the replica did not sync');
    usleep(50000);
}
$fake = sn_spawn_fake_sentinel($replica['port']);
$key = rt_key();

$byMaster = new RedLock(["redis://127.0.0.1:{$master['port']}"], 10, 1);
$lock = $byMaster->lock($key, 10000);
$deadline = microtime(true) + 5;
while (rt_redis($replica['port'], 'GET', $key) !== $lock['token'] && microtime(true) < $deadline) {
    usleep(10000); // replication is asynchronous
}
var_dump(rt_redis($replica['port'], 'GET', $key) === $lock['token']);

$r = new RedLock(["sentinel://127.0.0.1:{$fake['port']}/m?timeout=0.5"], 10, 1);
var_dump($r->validity($lock), $r->getLastErrors()[0]);
var_dump($r->lock($key . ':other', 10000), $r->getLastErrors()[0]);

/* A user that may not run ROLE: the replica's READONLY on the write tells it. */
foreach ([$master, $replica] as $server) {
    rt_redis($server['port'], 'ACL', 'SETUSER', 'locker', 'on', '>pw', '~*', '+@all', '-role');
}
$r = new RedLock(["sentinel://locker:pw@127.0.0.1:{$fake['port']}/m?timeout=0.5"], 10, 1);
var_dump($r->lock($key . ':other', 10000), $r->getLastErrors()[0]);
sn_fake_answer($fake, $master['port']); // the sentinels now name the master
$other = $r->lock($key . ':other', 10000);
var_dump(is_array($other), rt_redis($master['port'], 'GET', $key . ':other') === $other['token']);
var_dump($r->unlock($other), $byMaster->unlock($lock));
?>
--EXPECT--
bool(true)
bool(false)
string(74) "ROLE: this server is not the master (the sentinels' answer is out of date)"
bool(false)
string(74) "ROLE: this server is not the master (the sentinels' answer is out of date)"
bool(false)
string(53) "READONLY You can't write against a read only replica."
bool(true)
bool(true)
bool(true)
bool(true)
