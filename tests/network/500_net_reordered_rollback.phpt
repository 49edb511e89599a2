--TEST--
Network: a failed attempt's late rollback must not delete the lock a later attempt of the same call won
--EXTENSIONS--
redlock
pcntl
--FILE--
<?php
/* Server A's first connection carries attempt 1's SET and, pipelined behind it, its rollback; the
 * path delays those bytes 400 ms. Attempt 1 fails (A times out, C is held by someone else),
 * attempt 2 goes out on a new connection and wins A and B. Then A receives attempt 1's bytes:
 * the SET fails (NX), and the rollback must not delete attempt 2's key. If every attempt shares
 * one token it does, and a second client then locks A and C while the first still holds a valid
 * lock: two holders. */
require __DIR__ . '/../inc/faultproxy.inc';
fp_alarm(8);
$s = fp_time_scale();
$a = fp_spawn_server();
$b = fp_spawn_server();
$c = fp_spawn_server();
$proxy = fp_start([$a['port']]);
$key = rt_key();
$timeout = 0.05 * $s;

rf_cmd($c['port'], 'SET', $key, 'foreign', 'PX', (string) (int) (700 * $s));
$foreignSet = hrtime(true);
fp_set($proxy, $a['port'], 'next', 'delay_c2s=' . (int) (400 * $s));
$one = new RedLock([['127.0.0.1', $proxy['listen'][$a['port']], $timeout],
    ['127.0.0.1', $b['port'], $timeout], ['127.0.0.1', $c['port'], $timeout]]);
$lock = $one->lock($key, (int) (5000 * $s));
echo "client 1 locked: ", var_export(is_array($lock), true), "\n";
$lockedAt = hrtime(true);

/* The foreign key on C has expired, A's delayed bytes have long arrived. */
usleep((int) max(0, 800 * $s * 1000 - (hrtime(true) - $foreignSet) / 1000));
$holders = 0;
foreach ([$a, $b, $c] as $server) {
    $holders += rf_cmd($server['port'], 'GET', $key) === ($lock['token'] ?? null) ? 1 : 0;
}
echo "client 1's token on a majority: ", var_export($holders >= 2, true), "\n";
$left = is_array($lock) ? $lock['validity'] - (hrtime(true) - $lockedAt) / 1e6 : 0;
echo "client 1's lock still valid: ", var_export($left > 1000, true), "\n";

$two = new RedLock(rf_list([$a['port'], $b['port'], $c['port']], 1.0), 10, 1);
$other = $two->lock($key, 5000);
echo "client 2 locked too: ", var_export(is_array($other), true), "\n";
if (is_array($other)) {
    echo "  client 2 won: ", implode(',', array_keys(array_filter($two->getLastErrors(), 'is_null'))), "\n";
}
echo "client 1 unlock: ", var_export(is_array($lock) && $one->unlock($lock), true), "\n";
?>
--EXPECT--
client 1 locked: true
client 1's token on a majority: true
client 1's lock still valid: true
client 2 locked too: false
client 1 unlock: true
