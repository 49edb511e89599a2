--TEST--
Sentinel members: when every sentinel of a member is down (refused, or accepting and silent) each call is bounded by the sentinels' timeouts and says why in getLastErrors(); the other members still make the quorum; with two such members of three, lock() fails in bounded time. The sentinels are asked at once, so three silent ones at 0.5 s cost one timeout, not their sum (1.5 s before, issue 32 defect 15); a master name the sentinels do not know is named in the error
--EXTENSIONS--
redlock
--FILE--
<?php
require __DIR__ . '/../inc/sentinel.inc';
$key = rt_key();
/* accepts connections (the kernel's backlog) and never answers */
$silent = stream_socket_server('tcp://127.0.0.1:0');
$silentPort = (int) substr(strrchr(stream_socket_get_name($silent, false), ':'), 1);
$dead = 'sentinel://127.0.0.1:' . rt_free_port() . ',127.0.0.1:' . rt_free_port() . ",127.0.0.1:$silentPort/m?timeout=0.2";
$plain = array_map(fn ($e) => "redis://{$e[0]}:{$e[1]}?timeout=2", array_slice(rt_endpoints(), 0, 2));
$bound = 1500 * rt_time_scale(); // one silent sentinel at 0.2 s, two refused at once: far below

$r = new RedLock([$plain[0], $plain[1], $dead], 10, 1);
foreach (['lock', 'validity', 'extend', 'unlock'] as $call) {
    [$result, $ms] = rt_timed(function () use ($call, $r, $key, &$lock) {
        return match ($call) {
            'lock' => $lock = $r->lock($key, 10000),
            'validity' => $r->validity($lock),
            'extend' => $r->extend($lock, 10000),
            'unlock' => $r->unlock($lock),
        };
    });
    $error = $r->getLastErrors()[2];
    printf("%s: %s, %s, %s\n", $call, is_array($result) ? 'array' : var_export($result > 0, true),
        $ms < $bound ? 'bounded' : "took $ms ms", $error === 'no reply needed' ? 'not waited for' : $error);
}

// two members of three without a sentinel: no quorum, in bounded time
$r = new RedLock([$plain[0], $dead, str_replace('/m?', '/n?', $dead)], 10, 2);
[$result, $ms] = rt_timed(fn () => $r->lock($key, 10000));
var_dump($result, $ms < 2 * $bound + 200 * rt_time_scale());
echo $r->getLastErrors()[1], "\n";

// three silent sentinels (accepting, never answering) at 0.5 s: asked together, one timeout
$silentPorts = [];
foreach (range(1, 3) as $_) {
    $socket = stream_socket_server('tcp://127.0.0.1:0');
    $silentPorts[] = (int) substr(strrchr(stream_socket_get_name($socket, false), ':'), 1);
    $keep[] = $socket;
}
$r = new RedLock(['sentinel://' . implode(',', array_map(fn ($p) => "127.0.0.1:$p", $silentPorts)) . '/m?timeout=0.5'], 0, 1);
[$result, $ms] = rt_timed(fn () => $r->lock($key . ':silent', 10000));
$oneTimeout = 500 + 400 * rt_time_scale(); // the sentinels' one timeout (a timer: not scaled) and our own work
echo "three silent sentinels: ", var_export($result, true), ', ', $ms >= 450 && $ms < $oneTimeout ? 'one timeout' : "took $ms ms",
    ', ', $r->getLastErrors()[0], "\n";

// a master name the sentinels do not know: the error names it; beside a silent sentinel, its answer is the reason given
$fake = sn_spawn_fake_sentinel(1);
sn_fake_unknown($fake);
$r = new RedLock(["sentinel://127.0.0.1:{$fake['port']}/orders-master?timeout=0.5"], 0, 1);
var_dump($r->lock($key . ':unknown', 10000));
echo $r->getLastErrors()[0], "\n";
$r = new RedLock(["sentinel://127.0.0.1:{$silentPorts[0]},127.0.0.1:{$fake['port']}/orders-master?timeout=0.2"], 0, 1);
var_dump($r->lock($key . ':unknown', 10000));
echo $r->getLastErrors()[0], "\n";
?>
--EXPECTF--
lock: array, bounded, %s
validity: true, bounded, %s
extend: array, bounded, %s
unlock: true, bounded, %s
bool(false)
bool(true)
sentinel: no master address (sentinel #2: timeout)
three silent sentinels: false, one timeout, sentinel: no master address (sentinel #0: timeout)
bool(false)
sentinel: no master address (sentinel #0: does not know the master "orders-master")
bool(false)
sentinel: no master address (sentinel #1: does not know the master "orders-master")
