--TEST--
Network: connections reset mid-request, mid-reply and after N bytes never yield a lock or release without a majority, and the next call works
--EXTENSIONS--
redlock
pcntl
--FILE--
<?php
/* 3 servers behind the proxy. Each case resets the connections of 1 or 2 servers after N bytes
 * client->server (a request cut short) or server->client (a reply cut short: "+OK\r\n" is 5
 * bytes), on open and on new connections. Whatever lock()/unlock() answer is checked against
 * the servers themselves, and after each case the same object must lock and unlock again. */
require __DIR__ . '/../inc/faultproxy.inc';
fp_alarm(15);
$ports = [fp_spawn_server()['port'], fp_spawn_server()['port'], fp_spawn_server()['port']];
$proxy = fp_start($ports);
$list = array_map(fn ($p) => ['127.0.0.1', $proxy['listen'][$p], 1.0], $ports);
$redlock = new RedLock($list, 10, 2);

function holders(array $ports, string $key, string $token): int
{
    return count(array_filter($ports, fn ($p) => rf_cmd($p, 'GET', $key) === $token));
}

$tally = ['cases' => 0, 'locked' => 0, 'lock false' => 0, 'lock without majority' => 0, 'unlock true' => 0,
    'unlock true but still held on a majority' => 0, 'next call failed' => 0];
foreach ([1, 2] as $faulty) {
    foreach (['rst_c2s', 'rst_s2c'] as $direction) {
        foreach ([0, 1, 3, 4, 5, 9, 20, 60, 200] as $n) {
            $key = rt_key("$faulty-$direction-$n");
            $tally['cases']++;
            foreach (array_slice($ports, 0, $faulty) as $p) {
                fp_set($proxy, $p, 'all', "$direction=$n");
            }
            $lock = $redlock->lock($key, 10000);
            if (is_array($lock)) {
                $tally['locked']++;
                $tally['lock without majority'] += holders($ports, $key, $lock['token']) >= 2 ? 0 : 1;
                if ($redlock->unlock($lock)) {
                    $tally['unlock true']++;
                    $tally['unlock true but still held on a majority'] += holders($ports, $key, $lock['token']) >= 2 ? 1 : 0;
                }
            } else {
                $tally['lock false']++;
            }
            fp_ctl($proxy, 'CLEAR');
            $again = $redlock->lock("$key:again", 10000);
            if (!is_array($again) || !$redlock->unlock($again)) {
                $tally['next call failed']++;
            }
        }
    }
}
preg_match_all('/resets=(\d+)/', fp_ctl($proxy, 'STATS'), $m);
echo "resets injected: ", var_export(array_sum($m[1]) >= 20, true), "\n";
echo "some locks won, some lost: ", var_export($tally['locked'] > 0 && $tally['lock false'] > 0, true), "\n";
foreach (['cases', 'lock without majority', 'unlock true but still held on a majority', 'next call failed'] as $k) {
    echo "$k: {$tally[$k]}\n";
}
?>
--EXPECT--
resets injected: true
some locks won, some lost: true
cases: 36
lock without majority: 0
unlock true but still held on a majority: 0
next call failed: 0
