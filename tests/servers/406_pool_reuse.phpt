--TEST--
Persistent connections: a later RedLock object reuses the idle connection (no new connect on the server); other credentials or database, or redlock.persistent=0, connect anew
--EXTENSIONS--
redlock
--INI--
redlock.persistent=1
--FILE--
<?php
require __DIR__ . '/../inc/redlock_test.inc';
$srv = rt_spawn_server();
$port = $srv['port'];
$key = rt_key();
$connects = fn () => rt_info($port, 'total_connections_received');
$use = function (string|array $server) use ($key) {
    $redlock = new RedLock([$server], 10, 1);
    $lock = $redlock->lock($key, 10000);
    $ok = $lock !== false && $redlock->unlock($lock);
    return $ok;
};
$base = $connects(); // counts our helper's own link too

var_dump($use("redis://127.0.0.1:$port"), $connects() - $base);
var_dump($use("redis://127.0.0.1:$port"), $connects() - $base);          // reused
var_dump($use(['127.0.0.1', $port, 0.5]), $connects() - $base);          // same endpoint, other form: reused
var_dump(rt_info($port, 'connected_clients'));                             // helper + 1 idle pooled

// Two objects alive at once each need their own connection; both go back to the pool.
$a = new RedLock(["redis://127.0.0.1:$port"]);
$b = new RedLock(["redis://127.0.0.1:$port"]);
$la = $a->lock("$key-a", 10000);
$lb = $b->lock("$key-b", 10000);
var_dump($a->unlock($la), $b->unlock($lb), $connects() - $base);
unset($a, $b);
var_dump($use("redis://127.0.0.1:$port"), $use("redis://127.0.0.1:$port"), $connects() - $base);

var_dump($use("redis://127.0.0.1:$port/2"), $connects() - $base);        // another database
var_dump($use("redis://127.0.0.1:$port/2"), $connects() - $base);

ini_set('redlock.persistent', '0');
var_dump($use("redis://127.0.0.1:$port"), $connects() - $base);          // private connection
var_dump($use("redis://127.0.0.1:$port"), $connects() - $base);
ini_set('redlock.persistent', '1');
var_dump($use("redis://127.0.0.1:$port"), $connects() - $base);          // the pool is still there
?>
--EXPECT--
bool(true)
int(1)
bool(true)
int(1)
bool(true)
int(1)
int(2)
bool(true)
bool(true)
int(2)
bool(true)
bool(true)
int(2)
bool(true)
int(3)
bool(true)
int(3)
bool(true)
int(4)
bool(true)
int(5)
bool(true)
int(5)
