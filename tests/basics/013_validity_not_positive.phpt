--TEST--
A ttl too small to leave any validity (ttl=2: drift 2.02 ms) gives false, and the won SET is released
--EXTENSIONS--
redlock
--FILE--
<?php
require __DIR__ . '/../inc/redlock_test.inc';

function calls(int $port, string $command): int
{
    $info = rt_redis($port, 'INFO', 'commandstats');
    return preg_match("/^cmdstat_$command:calls=(\d+)/m", $info, $m) ? (int) $m[1] : 0;
}

foreach ([1, 2] as $ttl) {
    $key = rt_key("ttl$ttl");
    $redlock = new RedLock(rt_servers(5, 2.0), 10, 2);
    var_dump($redlock->lock($key, $ttl));
    usleep(20000);
    var_dump(rt_values_are($key, array_fill(0, 5, null)));
}

// On a private server: the SET was made and won, and a release followed it even so.
$server = rt_spawn_server();
$port = $server['port'];
$key = rt_key('private');
$redlock = new RedLock([['127.0.0.1', $port, 2.0]], 10, 1);
var_dump(is_array($redlock->lock($key, 10000))); // a normal lock first: opens the connection
rt_redis($port, 'CONFIG', 'RESETSTAT');
var_dump($redlock->lock(rt_key('tiny'), 2));
// lock() may give up at its 2 ms deadline before the server has even run the SET: wait for both.
var_dump(rt_eventually(fn () => calls($port, 'set') === 1 && calls($port, 'eval') === 1));
echo "SET: ", calls($port, 'set'), ", release: ", calls($port, 'eval'), "\n";
?>
--EXPECT--
bool(false)
bool(true)
bool(false)
bool(true)
bool(true)
bool(false)
bool(true)
SET: 1, release: 1
