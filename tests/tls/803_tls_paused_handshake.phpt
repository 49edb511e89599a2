--TEST--
TLS: a server paused (SIGSTOP) before it answers the handshake costs at most its timeout ("connect: timeout in the TLS handshake"), never a hang; with two other servers the lock forms without it; once resumed it serves again
--EXTENSIONS--
redlock
--FILE--
<?php
require __DIR__ . '/../inc/tls.inc';
$paused = tls_spawn();
$good = [tls_spawn(), tls_spawn()];
$key = rt_key();
rt_signal($paused, 'STOP'); // the kernel still completes the TCP connect; the handshake gets no answer

$alone = new RedLock([tls_server($paused, [], ['timeout' => 0.3])], 10, 1);
[$lock, $ms] = rt_timed(fn () => $alone->lock($key, 10000));
var_dump($lock, $alone->getLastErrors());
// The handshake's timeout, 300 ms, plus our own work (scaled under valgrind, and by the machine's load: 579 ms
// on a ZTS build at a load of 10 on 2 cores): the 1 s default fails, up to a load of 3.5 per core.
$bounded = fn (float $ms) => $ms >= 290 && $ms < 300 + 200 * rt_time_scale() * rt_load_scale();
echo $bounded($ms) ? "bounded by the 300 ms timeout\n" : "took $ms ms\n";

// unlock() and validity() are bounded the same way.
[$released, $ms] = rt_timed(fn () => $alone->unlock(['resource' => $key, 'token' => str_repeat('a', 32)]));
var_dump($released, $bounded($ms) ? 'bounded by the 300 ms timeout' : "took $ms ms");

$three = new RedLock([tls_server($paused, [], ['timeout' => 0.3]), tls_server($good[0]), tls_server($good[1])], 10, 1);
$lock = $three->lock($key, 10000);
var_dump(is_array($lock), $three->getLastErrors()[1], $three->getLastErrors()[2]);
var_dump($three->unlock($lock));

rt_signal($paused, 'CONT');
$alone = new RedLock([tls_server($paused)], 10, 1);
$lock = $alone->lock($key, 10000);
var_dump(is_array($lock), $alone->unlock($lock));
?>
--EXPECT--
bool(false)
array(1) {
  [0]=>
  string(37) "connect: timeout in the TLS handshake"
}
bounded by the 300 ms timeout
bool(false)
string(29) "bounded by the 300 ms timeout"
bool(true)
NULL
NULL
bool(true)
bool(true)
bool(true)
