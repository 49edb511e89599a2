--TEST--
Eviction guard: where CONFIG is renamed away (rename-command CONFIG "") or refused by an ACL (NOPERM), the policy comes from INFO memory's maxmemory_policy; a server that refuses both is "unknown": a warning, and not refused by 'refuse' (nothing says it evicts)
--EXTENSIONS--
redlock
--FILE--
<?php
require __DIR__ . '/../inc/redlock_test.inc';
$key = rt_key();
$renamed = rt_spawn_server(['--maxmemory-policy', 'volatile-lfu', '--rename-command', 'CONFIG', '']);
$acl = rt_spawn_server(['--maxmemory-policy', 'allkeys-random', '--user', 'locker', 'on', '>pw', '~*', '&*', '+@all', '-config']);
$neither = rt_spawn_server(['--maxmemory-policy', 'allkeys-lru', '--user', 'locker', 'on', '>pw', '~*', '&*', '+@all', '-config', '-info']);
$renamedBoth = rt_spawn_server(['--rename-command', 'CONFIG', '', '--rename-command', 'INFO', '']);
$servers = ["redis://127.0.0.1:{$renamed['port']}?timeout=3", "redis://locker:pw@127.0.0.1:{$acl['port']}?timeout=3",
    "redis://locker:pw@127.0.0.1:{$neither['port']}?timeout=3", "redis://127.0.0.1:{$renamedBoth['port']}?timeout=3"];
$redlock = new RedLock($servers, 10, 1, ['quorum' => 4]);
$lock = $redlock->lock($key, 10000);
var_dump($lock !== false, $redlock->getLastErrors(), $redlock->getServerWarnings());
$redlock->unlock($lock);

// 'refuse' refuses what is known to evict (the first two), not the unknown ones.
$strict = new RedLock($servers, 10, 1, ['quorum' => 2, 'evictingServers' => 'refuse']);
$lock = $strict->lock("$key-2", 10000);
$errors = $strict->getLastErrors();
var_dump($lock !== false, $errors[2], $errors[3], str_contains((string) $errors[0], 'vote refused') || $errors[0] === 'no reply needed');
?>
--EXPECT--
bool(true)
array(4) {
  [0]=>
  NULL
  [1]=>
  NULL
  [2]=>
  NULL
  [3]=>
  NULL
}
array(4) {
  [0]=>
  string(49) "maxmemory-policy volatile-lfu can evict lock keys"
  [1]=>
  string(51) "maxmemory-policy allkeys-random can evict lock keys"
  [2]=>
  string(53) "maxmemory-policy unknown: CONFIG GET and INFO refused"
  [3]=>
  string(53) "maxmemory-policy unknown: CONFIG GET and INFO refused"
}
bool(true)
NULL
NULL
bool(true)
