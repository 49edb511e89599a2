<?php
/* The chaos worker for lockSemaphore(), lockShared() and fencing (required by verify/chaos/worker.php
 * when its config has a "mode" other than "lock"). Loops acquire -> hold -> unlock until its time
 * or count runs out and logs every use interval [acquired, min(unlock called, valid until)] with
 * what the check needs (verify/chaos/tally_primitives.php):
 *   semaphore: lockSemaphore($resource, limit, ttl)           extra = slot
 *   shared:    lock() with probability exclusive_pct %, else lockShared()   extra = 1 exclusive, 0 shared
 *   fence:     lock() on a RedLock with 'fencing' => true     extra = the fence
 * Records are packed 'q4' (resource, from, to, extra) in $out.pv. */

$mode = $cfg['mode'];
$options = $mode === 'fence' ? ['fencing' => true] : [];
$redlock = new RedLock($servers, $cfg['retry_delay'], $cfg['retry_count'], $options);
$tally = [
    'id' => $id, 'acquisitions' => 0, 'lock_false' => 0, 'unlock_false' => 0,
    'overlap_within_validity' => 0, 'overlap_after_expiry' => 0, 'overlap_ambiguous' => 0,
    'overlap_on_exit' => 0, 'overruns' => 0, 'late_writes' => 0, 'exclusive' => 0, 'shared' => 0,
    'per_resource' => array_fill(0, $cfg['resources'], 0), 'examples' => [], 'first_violation_ns' => null,
];
$latencies = '';
$records = '';
$deadline = hrtime(true) + (int) ($cfg['duration'] * 1e9);
$sleepUs = $cfg['sleep_us'];
$sleepUsMax = max($sleepUs, $cfg['sleep_us_max'] ?? 0);

for ($call = 0; $call < $cfg['max_calls'] && $tally['acquisitions'] < $cfg['max_acquisitions']; $call++) {
    if (hrtime(true) >= $deadline) {
        break;
    }
    $r = $call % $cfg['resources'];
    $resource = "chaos:{$cfg['run']}:res:$r";
    $exclusive = $mode === 'shared' && mt_rand(1, 100) <= $cfg['exclusive_pct'];
    $t0 = hrtime(true);
    $lock = match ($mode) {
        'semaphore' => $redlock->lockSemaphore($resource, $cfg['limit'], $cfg['ttl']),
        'shared' => $exclusive ? $redlock->lock($resource, $cfg['ttl']) : $redlock->lockShared($resource, $cfg['ttl']),
        'fence' => $redlock->lock($resource, $cfg['ttl']),
    };
    $t1 = hrtime(true);
    if ($lock === false) {
        $tally['lock_false']++;
        continue;
    }
    $latencies .= pack('g', ($t1 - $t0) / 1e6);
    $validUntil = $t1 + (int) ($lock['validity'] * 1e6);
    $tally['acquisitions']++;
    $tally['per_resource'][$r]++;
    if ($mode === 'shared') {
        $tally[$exclusive ? 'exclusive' : 'shared']++;
    }
    if ($sleepUsMax > 0) {
        usleep($sleepUsMax > $sleepUs ? mt_rand($sleepUs, $sleepUsMax) : $sleepUs);
    }
    $tu = hrtime(true);
    if ($tu > $validUntil) {
        $tally['overruns']++;
    }
    $extra = match ($mode) {
        'semaphore' => $lock['slot'],
        'shared' => $exclusive ? 1 : 0,
        'fence' => $lock['fence'],
    };
    $records .= pack('q4', $r, $t1, min($tu, $validUntil), $extra);
    if (!$redlock->unlock($lock)) {
        $tally['unlock_false']++;
    }
}
$tally['calls'] = $call;
file_put_contents($cfg['out'] . '.lat', $latencies);
file_put_contents($cfg['out'] . '.pv', $records);
file_put_contents($cfg['out'] . '.json', json_encode($tally));
