<?php
/* One chaos worker (started by chaos/run.php, never by hand): loops lock -> guarded critical
 * section -> unlock on one of the shared resources until its time or count runs out, then
 * writes its tallies as JSON and its acquire latencies as packed floats.
 *
 * The guard lives on a separate redis-server that the chaos loop never touches:
 *   owner key: SET NX to our id on entry; finding it taken means two holders at once.
 *   counter:   GET, (sleep), SET +1; a lost update shows up as counter != acquisitions.
 *   exit:      delete owner only if it is still us (atomic script); otherwise another holder wrote it. */

require __DIR__ . '/resp.php';

$cfg = json_decode($argv[1] ?? '', true, 16, JSON_THROW_ON_ERROR);
$id = "w{$cfg['id']}-" . getmypid();
$servers = array_map(fn ($p) => ['127.0.0.1', $p, $cfg['server_timeout']], $cfg['lock_ports']);
$redlock = new RedLock($servers, $cfg['retry_delay'], $cfg['retry_count']);
$guard = Resp::connect($cfg['guard_port']);
if ($guard === null) {
    fwrite(STDERR, "$id: cannot reach the guard server\n");
    exit(2);
}
$releaseIfMine = "if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) else return 0 end";

$tally = [
    'id' => $id, 'acquisitions' => 0, 'lock_false' => 0, 'unlock_false' => 0,
    'overlap_on_entry' => 0, 'overlap_on_exit' => 0, 'overruns' => 0,
    'per_resource' => array_fill(0, $cfg['resources'], 0), 'examples' => [],
];
$latencies = '';
$deadline = hrtime(true) + (int) ($cfg['duration'] * 1e9);
$maxAcquisitions = $cfg['max_acquisitions'];
$sleepUs = $cfg['sleep_us'];

for ($call = 0; $call < $cfg['max_calls'] && $tally['acquisitions'] < $maxAcquisitions; $call++) {
    if (hrtime(true) >= $deadline) {
        break;
    }
    $r = $call % $cfg['resources'];
    $resource = "chaos:{$cfg['run']}:res:$r";
    $t0 = hrtime(true);
    $lock = $redlock->lock($resource, $cfg['ttl']);
    $t1 = hrtime(true);
    if ($lock === false) {
        $tally['lock_false']++;
        continue;
    }
    $latencies .= pack('g', ($t1 - $t0) / 1e6);
    $tally['acquisitions']++;
    $tally['per_resource'][$r]++;

    $ownerKey = "chaos:{$cfg['run']}:owner:$r";
    $counterKey = "chaos:{$cfg['run']}:counter:$r";
    $entered = $guard->call('SET', $ownerKey, $id, 'NX');
    if ($entered !== 'OK') {
        $tally['overlap_on_entry']++;
        if (count($tally['examples']) < 5) {
            $tally['examples'][] = "entry: $resource held by " . var_export($guard->call('GET', $ownerKey), true);
        }
    }
    $count = (int) $guard->call('GET', $counterKey);
    if ($sleepUs > 0) {
        usleep($sleepUs);
    }
    $guard->call('SET', $counterKey, (string) ($count + 1));
    if ($entered === 'OK' && $guard->call('EVAL', $releaseIfMine, '1', $ownerKey, $id) !== 1) {
        $tally['overlap_on_exit']++;
    }
    /* Past its validity the lock may legitimately have passed on: not the algorithm's fault. */
    if ((hrtime(true) - $t0) / 1e6 >= $lock['validity'] + ($t1 - $t0) / 1e6) {
        $tally['overruns']++;
    }
    if (!$redlock->unlock($lock)) {
        $tally['unlock_false']++;
    }
}
$tally['calls'] = $call;
file_put_contents($cfg['out'] . '.lat', $latencies);
file_put_contents($cfg['out'] . '.json', json_encode($tally));
