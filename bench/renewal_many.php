<?php
/**
 * autoExtend with many leases on one object (issue 32 #7): takes N locks of ttl TTL ms with one object, holds them
 * HOLD s while the renewal thread keeps them, and prints how many were lost (RedLock::metrics()'s lost, and the
 * locks whose validity() is 0 at the end), the renewals made, and the CPU time of the renewal thread per renewal
 * (/proc/self/task/<tid>/schedstat of every thread but PHP's, ns).
 *   php renewal_many.php H:P,... N TTL HOLD
 * Run through bench/delay_proxy.c for a chosen RTT: bench/renewal_many.sh.
 */
[$serverList, $n, $ttl, $hold] = array_slice($argv, 1, 4) + [null, 1000, 1000, 5];
$servers = array_map(function ($hp) {
    [$h, $p] = explode(':', $hp);
    return [$h, (int) $p, 2.0];
}, explode(',', (string) $serverList));
function other_threads_cpu_ns(): int
{
    $sum = 0;
    foreach (glob('/proc/self/task/*') as $task) {
        if (basename($task) !== (string) getmypid()) {
            $sum += (int) explode(' ', (string) @file_get_contents("$task/schedstat"))[0];
        }
    }
    return $sum;
}
$lost = 0;
$why = [];
$r = new RedLock($servers, 3, 50, ['autoExtend' => true, 'onLoss' => function ($l, $reason = "?") use (&$lost, &$why) { $lost++; $why[(string) $reason] = ($why[(string) $reason] ?? 0) + 1; }]);
$prefix = 'bench:renewal_many:' . getmypid() . ':';
$locks = [];
$t = microtime(true);
for ($i = 0; $i < (int) $n; $i++) {
    $lock = $r->lock($prefix . $i, (int) $ttl);
    if ($lock === false) {
        fprintf(STDERR, "lock %d not taken\n", $i);
        exit(1);
    }
    $locks[] = $lock;
}
$took = microtime(true) - $t;
$r->validity($locks[0]); // the thread's counts so far handed on
$m0 = RedLock::metrics();
$cpu = other_threads_cpu_ns();
usleep((int) ($hold * 1e6));
$cpu = other_threads_cpu_ns() - $cpu;
$invalid = 0;
foreach ($locks as $lock) {
    $invalid += $r->validity($lock) > 0 ? 0 : 1; // also hands the losses to onLoss and the counts on
}
$m1 = RedLock::metrics();
$m = ['renewals' => $m1['renewals'] - $m0['renewals'], 'lost' => $m1['lost']];
foreach ($locks as $lock) {
    $r->unlock($lock);
}
$renewals = $m['renewals'] ?? 0;
printf("leases=%d ttl=%d hold=%.1fs locking=%.1fs renewals=%d lost=%d invalid_at_end=%d on_loss=%d reasons=%s thread_cpu_ms=%.1f cpu_us_per_renewal=%.2f\n",
    $n, $ttl, $hold, $took, $renewals, $m['lost'] ?? -1, $invalid, $lost, json_encode($why), $cpu / 1e6, $renewals > 0 ? $cpu / 1e3 / $renewals : 0);
