<?php
// Every lock call of $redlock as StatsD metrics over UDP: a counter per call and outcome, the wait
// as a timer, each server's errors, renewals and losses. Needs the redlock extension.
//   php statsd-observer.php [PORT=8125] [REDIS=127.0.0.1:6379,...]
$port = (int) ($argv[1] ?? 8125);
$servers = array_map(fn ($hostPort) => ['127.0.0.1', (int) explode(':', $hostPort)[1], 0.5],
    explode(',', $argv[2] ?? '127.0.0.1:6379'));

$statsd = stream_socket_client("udp://127.0.0.1:$port", $errno, $errstr);
$observer = function (array $call) use ($statsd): void {
    $name = "redlock.{$call['call']}";
    $lines = [
        "$name.{$call['outcome']}:1|c",
        sprintf('%s.waited:%.3f|ms', $name, $call['waited_ms']),
    ];
    foreach ($call['servers'] as $i => $server) {
        if (!in_array($server['vote'], ['yes', 'taken', 'no reply needed'], true)) {
            $lines[] = "redlock.server.$i.errors:1|c";   // $server['vote'] says why: log it if you like
        }
    }
    if ($call['renewals'] > 0) {
        $lines[] = "redlock.renewals:{$call['renewals']}|c";
    }
    if ($call['lost'] > 0) {
        $lines[] = "redlock.lost:{$call['lost']}|c";
    }
    // UDP: one datagram, no wait for anybody; a failure here never fails the lock call.
    @fwrite($statsd, implode("\n", $lines));
};

$redlock = new RedLock($servers, 50, 3, ['observer' => $observer]);
$lock = $redlock->lock('report:daily', 10000);
try {
    $redlock->run('report:daily', 5000, fn () => 'busy');  // held by $lock: contended, 3 attempts
} catch (RedLockException $e) {
    echo $e->getMessage(), "\n";
}
$redlock->unlock($lock);
