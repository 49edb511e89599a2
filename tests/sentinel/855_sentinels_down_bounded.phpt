--TEST--
Sentinel members: when every sentinel of a member is down (refused, or accepting and silent) each call is bounded by the sentinels' timeouts and says why in getLastErrors(); the other members still make the quorum; with two such members of three, lock() fails in bounded time
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
$plain = array_map(fn ($e) => "redis://{$e[0]}:{$e[1]}?timeout=0.5", array_slice(rt_endpoints(), 0, 2));
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
?>
--EXPECTF--
lock: array, bounded, %s
validity: true, bounded, %s
extend: array, bounded, %s
unlock: true, bounded, %s
bool(false)
bool(true)
sentinel: no master address (sentinel #2: timeout)
