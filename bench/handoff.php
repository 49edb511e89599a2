<?php
/**
 * Handoff latency: P processes want ONE resource; each holder keeps it 10 ms and unlocks. How long
 * from the holder's unlock() call until the next process holds it? One of P processes:
 *
 *   php handoff.php notified|polling H:P,... GUARD_PORT RESOURCE START_UNIX_TIME SECONDS
 * polling: retryDelay 200 ms (the default), retryCount 1000000 (tries until it gets it).
 * notified: retryDelay 200 ms, waitTimeout 60000 (woken by the release's PUBLISH).
 * The holder writes hrtime() (CLOCK_MONOTONIC, shared by all processes) to a guard server just
 * before unlock(); the next holder reads it right after lock() returned. Only handoffs to another
 * process count: a releaser stays away until another process holds it, so that the waiters
 * compete among themselves. Prints one handoff (ms) per line.
 */
[$mode, $serverList, $guardPort, $resource, $startAt, $seconds] = array_slice($argv, 1, 6) + array_fill(0, 6, null);
$servers = array_map(function ($hp) {
    [$h, $p] = explode(':', $hp);
    return [$h, (int) $p, 1.0];
}, explode(',', (string) $serverList));
$redlock = $mode === 'notified'
    ? new RedLock($servers, 200, 0, ['waitTimeout' => 60000])
    : new RedLock($servers, 200, 1000000);
$guard = stream_socket_client("tcp://127.0.0.1:$guardPort");
$call = function (string ...$args) use ($guard) {
    $out = '*' . count($args) . "\r\n";
    foreach ($args as $a) {
        $out .= '$' . strlen($a) . "\r\n$a\r\n";
    }
    fwrite($guard, $out);
    $line = fgets($guard);
    if ($line[0] === '$' && (int) substr($line, 1) >= 0) {
        $data = fread($guard, (int) substr($line, 1) + 2);
        return substr($data, 0, -2);
    }
    return $line[0] === '$' ? null : trim(substr($line, 1));
};
$key = "handoff:$resource";
$endAt = (float) $startAt + (float) $seconds;
usleep((int) max(0, ((float) $startAt - microtime(true)) * 1e6));
while (microtime(true) < $endAt) {
    $lock = $redlock->lock($resource, 5000);
    $now = hrtime(true);
    if ($lock === false) {
        continue;
    }
    $released = $call('GETDEL', $key);
    if ($released !== null) {
        [$pid, $at] = explode(':', $released);
        if ((int) $pid !== getmypid()) {
            echo round(($now - (int) $at) / 1e6, 3), "\n";
        }
    }
    usleep(10000);
    $call('SET', $key, getmypid() . ':' . hrtime(true));
    $redlock->unlock($lock);
    // Stay away until another process took it (it GETDELs the key), so that every handoff has
    // waiters that were waiting, and none is to the releaser itself.
    $until = microtime(true) + 5;
    while ($call('EXISTS', $key) === '1' && microtime(true) < $until && microtime(true) < $endAt) {
        usleep(1000);
    }
}
