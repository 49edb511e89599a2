<?php
/**
 * The drop-in cycle (new RedLock + lock() + unlock()) N times, for callgrind:
 *   php telemetry_cycle.php H:P,H:P,... CYCLES [observer]
 * With "observer", an observer is registered through the constructor option and does the least a
 * real one does (reads two fields of the array). Used by bench/telemetry_callgrind.sh.
 */
[$list, $cycles, $mode] = array_slice($argv, 1) + [null, 0, 'none'];
$servers = [];
foreach (explode(',', $list) as $hostPort) {
    [$host, $port] = explode(':', $hostPort);
    $servers[] = [$host, (int) $port, 1.0];
}
$options = [];
$seen = 0;
if ($mode === 'observer') {
    $options['observer'] = function (array $call) use (&$seen): void {
        $seen += $call['attempts'] + (int) ($call['outcome'] === 'acquired');
    };
}
$prefix = 'bench:tel:' . getmypid();
for ($i = 0; $i < (int) $cycles; $i++) {
    $redlock = $options ? new RedLock($servers, 200, 3, $options) : new RedLock($servers, 200, 3);
    $lock = $redlock->lock("$prefix:$i", 10000);
    if ($lock === false) {
        fwrite(STDERR, "cycle $i: not acquired\n");
        exit(1);
    }
    $redlock->unlock($lock);
    unset($redlock);
}
