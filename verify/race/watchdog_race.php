<?php
/* A workout for the renewal thread under helgrind or TSan (verify/race/watchdog_race.sh): locks renewed
 * while the PHP thread adds, asks, removes, loses and frees them, abortOnLoss raising, onLoss
 * told (its notice is stored by the renewal thread, taken by this one), an observer, a fork.
 * Usage: php -d extension=modules/redlock.so verify/race/watchdog_race.php host:port,host:port,... */
$servers = array_map(function ($s) {
    [$h, $p] = explode(':', $s);
    return [$h, (int) $p, 0.5];
}, explode(',', $argv[1] ?? '127.0.0.1:7301'));
$key = 'redlock-race:' . getmypid();
$del = function (string $k) use ($servers) {
    foreach ($servers as [$h, $p]) {
        $s = stream_socket_client("tcp://$h:$p");
        fwrite($s, "*2\r\n\$3\r\nDEL\r\n\$" . strlen($k) . "\r\n$k\r\n");
        fgets($s);
    }
};
$told = 0;
// Retries: under helgrind on a loaded machine one call in a few hundred outlives a short ttl (CI, stop 40:
// lock() gave false at round 35 and validity(false) was a TypeError); the workout is the thread, not the
// call's speed, so a failed round retries and a round that still fails is skipped, counted.
$r = new RedLock($servers, 10, 3, ['autoExtend' => true, 'abortOnLoss' => true, 'maxExtensions' => 50,
    'onLoss' => function (array $lock, string $reason) use (&$told) { $told++; },
    'observer' => function (array $call) {}]);
$locks = [];
$skipped = 0;
// The first call opens the connections (with their probes) under helgrind, which on a loaded machine
// took longer than the 90 ms ttl below once: a warm-up with a long ttl first.
$warm = $r->lock("$key:warm", 10000);
if ($warm !== false) {
    $r->unlock($warm);
}
for ($round = 0; $round < 40; $round++) {
    $lock = $r->lock("$key:$round", 150);             // renewed every 50 ms
    if ($lock === false) {
        $skipped++;
        continue;
    }
    $locks[] = $lock;
    if (count($locks) > 3) {
        $r->unlock(array_shift($locks));              // removal while renewals run
    }
    foreach ($locks as $l) {
        $r->validity($l);                             // reads what the thread writes
    }
    if ($round % 10 === 5) {
        $del("$key:$round");                          // lost at its next renewal
    }
    usleep(20000);
}
$until = microtime(true) + 1.0;
while (microtime(true) < $until) {                    // only reads while the thread renews
    foreach ($locks as $l) {
        $r->validity($l);
    }
}
foreach ($locks as $l) {
    $r->unlock($l);
}
try {
    $r->run("$key:run", 90, function () use ($del, $key) {
        $del("$key:run");
        for ($i = 0; $i < 2000000; $i++) {
            usleep(100);                              // interrupted by abortOnLoss
        }
    });
} catch (RedLockException $e) {
    echo "aborted\n";
}
echo $told > 0 ? "told\n" : "never told\n";
echo "rounds skipped: $skipped of 40\n";
$held = $r->lock("$key:fork", 2000);
if ($held === false) {
    exit("the fork's lock was not taken\n");
}
$pid = pcntl_fork();
if ($pid === 0) {
    $r->validity($held);
    $mine = $r->lock("$key:child", 150);
    usleep(100000);
    if ($mine !== false) {
        $r->unlock($mine);
    }
    exit(0);
}
pcntl_waitpid($pid, $status);
usleep(100000);
var_dump($r->validity($held) > 0);
$r->unlock($held);
$last = $r->lock("$key:freed", 90);
usleep(50000);
unset($r);                                            // freed while renewing
echo "done\n";
