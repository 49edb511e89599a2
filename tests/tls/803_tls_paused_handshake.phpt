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
echo $ms < 5000 ? "bounded\n" : "took $ms ms\n"; // hang guard only: the bound is 300 ms

// unlock() and validity() are bounded the same way.
[$released, $ms] = rt_timed(fn () => $alone->unlock(['resource' => $key, 'token' => str_repeat('a', 32)]));
var_dump($released, $ms < 5000);

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
bounded
bool(false)
bool(true)
bool(true)
NULL
NULL
bool(true)
bool(true)
bool(true)
