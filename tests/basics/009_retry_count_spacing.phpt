--TEST--
retryCount=3, retryDelay=100 on a contended key: 3 SET attempts, two pauses of 50..100 ms, 3 releases; with retryDelay=400 each pause is 200..400 ms as the server saw it
--EXTENSIONS--
redlock
--FILE--
<?php
require __DIR__ . '/../inc/redlock_test.inc';

/** calls= of one command in INFO commandstats (0 when never called). */
function calls(int $port, string $command): int
{
    $info = rt_redis($port, 'INFO', 'commandstats');
    return preg_match("/^cmdstat_$command:calls=(\d+)/m", $info, $m) ? (int) $m[1] : 0;
}

/** Gaps in ms between the SETs of $fn's attempts, as the server saw them (MONITOR's timestamps). */
function set_gaps(int $port, callable $fn): array
{
    $monitor = stream_socket_client("tcp://127.0.0.1:$port", $errno, $errstr, 2.0);
    fwrite($monitor, "MONITOR\r\n");
    fgets($monitor); // +OK
    $fn();
    stream_set_timeout($monitor, 0, 300000);
    $times = [];
    while (($line = fgets($monitor)) !== false) {
        if (preg_match('/^\+(\d+\.\d+) .*"(?i:set)"/', $line, $m)) {
            $times[] = (float) $m[1];
        }
    }
    fclose($monitor);
    $gaps = [];
    for ($i = 1; $i < count($times); $i++) {
        $gaps[] = ($times[$i] - $times[$i - 1]) * 1000;
    }
    return $gaps;
}

$server = rt_spawn_server();
$port = $server['port'];
$key = rt_key();
rt_redis($port, 'SET', $key, 'foreign', 'PX', '60000');
rt_redis($port, 'CONFIG', 'RESETSTAT');

$redlock = new RedLock([['127.0.0.1', $port, 2.0]], 100, 3);
[$lock, $ms] = rt_timed(fn () => $redlock->lock($key, 10000));
var_dump($lock);
echo "SET attempts: ", calls($port, 'set'), "\n";
// Two pauses of 50..100 ms each (none after the last attempt), with a generous ceiling.
echo "at least 100 ms: ", var_export($ms >= 100, true), ", under 1500 ms: ", var_export($ms < 1500, true), "\n";
// Every failed attempt sends its release; the last one is not waited for.
var_dump(rt_eventually(fn () => calls($port, 'eval') === 3));
var_dump(rt_redis($port, 'GET', $key));
// Each pause alone: from one SET to the next, an attempt (a round trip, our CPU work: scaled under
// valgrind) and a pause of retryDelay/2 .. retryDelay, here 200..400 ms: a long retryDelay, so that what a
// busy machine's scheduler adds to a pause (a ZTS leg at load 4.5 per core measured 132 ms for a pause of at
// most 100) stays small beside the range. Four calls, eight pauses; the slack grows with the load per core
// (up to 4x: 100 ms). A pause drawn from a range twice as wide (200..800 ms, mutation
// retry-delay-unclamped) is above 500 ms half the time: it escapes this with a chance of 0.5^8, below 0.4 %.
$spaced = new RedLock([['127.0.0.1', $port, 2.0]], 400, 3);
$ceiling = 400 + 25 * rt_time_scale() * min(4.0, rt_load_scale());
$gaps = [];
for ($i = 0; $i < 4; $i++) {
    $gaps = array_merge($gaps, set_gaps($port, fn () => $spaced->lock($key, 10000)));
}
$outside = array_filter($gaps, fn ($gap) => $gap < 199 || $gap > $ceiling);
echo count($gaps), " pauses, within 200..400 ms: ", $outside ? 'NO: ' . implode(', ', $outside) : 'all', "\n";

// The default is 3 attempts too (retryDelay 200: two pauses of 100..200 ms).
rt_redis($port, 'CONFIG', 'RESETSTAT');
[$lock, $ms] = rt_timed(fn () => (new RedLock([['127.0.0.1', $port, 2.0]]))->lock($key, 10000));
var_dump($lock);
echo "default SET attempts: ", calls($port, 'set'), ", at least 200 ms: ", var_export($ms >= 200, true), "\n";
?>
--EXPECT--
bool(false)
SET attempts: 3
at least 100 ms: true, under 1500 ms: true
bool(true)
string(7) "foreign"
8 pauses, within 200..400 ms: all
bool(false)
default SET attempts: 3, at least 200 ms: true
