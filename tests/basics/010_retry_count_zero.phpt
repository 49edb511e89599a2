--TEST--
retryCount 0 and 1 both make exactly one attempt; retryCount N makes N
--EXTENSIONS--
redlock
--FILE--
<?php
require __DIR__ . '/../inc/redlock_test.inc';

function set_calls(int $port): int
{
    $info = rt_redis($port, 'INFO', 'commandstats');
    return preg_match('/^cmdstat_set:calls=(\d+)/m', $info, $m) ? (int) $m[1] : 0;
}

$server = rt_spawn_server();
$port = $server['port'];
$key = rt_key();
rt_redis($port, 'SET', $key, 'foreign', 'PX', '60000');

foreach ([0, 1, 2, 5] as $retryCount) {
    rt_redis($port, 'CONFIG', 'RESETSTAT');
    $lock = (new RedLock([['127.0.0.1', $port, 2.0]], 10, $retryCount))->lock($key, 10000);
    echo "retryCount $retryCount: ", var_export($lock, true), ", SET attempts: ", set_calls($port), "\n";
}

// On a free key a single attempt is enough, whatever retryCount says.
$free = rt_key('free');
rt_redis($port, 'CONFIG', 'RESETSTAT');
$lock = (new RedLock([['127.0.0.1', $port, 2.0]], 10, 0))->lock($free, 10000);
echo "free key: ", is_array($lock) ? 'locked' : 'refused', ", SET attempts: ", set_calls($port), "\n";
?>
--EXPECT--
retryCount 0: false, SET attempts: 1
retryCount 1: false, SET attempts: 1
retryCount 2: false, SET attempts: 2
retryCount 5: false, SET attempts: 5
free key: locked, SET attempts: 1
