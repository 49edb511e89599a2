<?php
/**
 * Fair waiting benchmark worker (issue 36): one process of P, with F Fibers (Revolt), each its own
 * RedLock object, on ONE resource: lock(), hold HOLD_MS, unlock(), again, until END (unix time).
 *
 *   php fair.php fair|notified|retries H:P,... RESOURCE START_UNIX END_UNIX FIBERS HOLD_MS OUT [LIMIT]
 * fair:     'fair' => true, 'waitTimeout' => 60000
 * notified: 'waitTimeout' => 60000 (every waiter woken by each release)
 * retries:  retryDelay 200 ms, retryCount 1000000 (the defaults' delay, tries until it gets it)
 * LIMIT > 0: lockSemaphore(RESOURCE, LIMIT, 5000) instead of lock(RESOURCE, 5000), the same objects.
 * Writes one line per hold to OUT: waiter call_ns acquired_ns released_ns token (CLOCK_MONOTONIC,
 * shared by the processes; the token to find the hold's ticket in a MONITOR log), as they happen (a process stopped at the deadline loses nothing written), and
 * at the end "cpu USER_S SYS_S", the process' own CPU (getrusage).
 */
require __DIR__ . '/../tests/inc/revolt.inc';
rt_revolt_load();
use Revolt\EventLoop;

[$mode, $serverList, $resource, $startAt, $endAt, $fibers, $holdMs, $outFile] = array_slice($argv, 1, 8);
$limit = (int) ($argv[9] ?? 0);
$servers = array_map(function ($hp) {
    [$h, $p] = explode(':', $hp);
    return [$h, (int) $p, 1.0];
}, explode(',', $serverList));
$out = fopen($outFile, 'w');
$make = fn () => match ($mode) {
    'fair' => new RedLock($servers, 200, 3, ['fair' => true, 'waitTimeout' => 60000]),
    'notified' => new RedLock($servers, 200, 3, ['waitTimeout' => 60000]),
    'retries' => new RedLock($servers, 200, 1000000),
};
usleep((int) max(0, ((float) $startAt - microtime(true)) * 1e6));
for ($f = 0; $f < (int) $fibers; $f++) {
    $id = getmypid() . '.' . $f;
    rt_async(function () use ($make, $resource, $endAt, $holdMs, $out, $id, $limit) {
        $r = $make();
        while (microtime(true) < (float) $endAt) {
            $call = hrtime(true);
            $lock = $limit > 0 ? $r->lockSemaphore($resource, $limit, 5000) : $r->lock($resource, 5000);
            $got = hrtime(true);
            if ($lock === false) {
                continue;
            }
            $s = EventLoop::getSuspension();
            EventLoop::delay((int) $holdMs / 1000, fn () => $s->resume());
            $s->suspend();
            $released = hrtime(true);
            $r->unlock($lock);
            fwrite($out, "$id $call $got $released {$lock['token']}\n");
            fflush($out);
        }
    });
}
EventLoop::run();
$u = getrusage(); // this process' CPU, for the cell's CPU per hand-over (fair_report.php)
fwrite($out, sprintf("cpu %.6f %.6f\n", $u['ru_utime.tv_sec'] + $u['ru_utime.tv_usec'] / 1e6,
    $u['ru_stime.tv_sec'] + $u['ru_stime.tv_usec'] / 1e6));
fclose($out);
