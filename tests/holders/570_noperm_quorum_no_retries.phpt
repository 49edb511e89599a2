--TEST--
Scripts refused by a quorum (NOPERM) are not contention: a fenced lock(), a lockSemaphore() and a lockShared() with retryCount 4 and retryDelay 1000 make one attempt and return false at once, the NOPERMs in getLastErrors() (main spent three pauses of 0.5-1 s on each, again each time the learnt NOPERM was asked anew a second later); with waitTimeout 3000 a lockShared() returns false at once too (main waited the 3 s out)
--EXTENSIONS--
redlock
--FILE--
<?php
require __DIR__ . '/../inc/redlock_test.inc';
[$a, $b, $c] = array_slice(rt_ports(), 0, 3);
$password = 'pw-' . bin2hex(random_bytes(6));
foreach ([$a, $b, $c] as $p) {
    rt_redis($p, 'ACL', 'SETUSER', 'h570', 'reset', 'on', ">$password", '~*', '&*', '+@all', '-@scripting');
}
$servers = array_map(fn ($p) => ['host' => '127.0.0.1', 'port' => $p, 'timeout' => 0.5, 'username' => 'h570',
    'password' => $password], [$a, $b, $c]);
$key = rt_key();
$calls = [
    'fenced' => fn () => (new RedLock($servers, 1000, 4, ['fencing' => true]))->lock($key, 10000),
    'semaphore' => fn () => (new RedLock($servers, 1000, 4))->lockSemaphore("$key:s", 2, 10000),
    'shared' => fn () => (new RedLock($servers, 1000, 4))->lockShared("$key:h", 10000),
    'shared, waitTimeout' => fn () => (new RedLock($servers, 1000, 4, ['waitTimeout' => 3000]))->lockShared("$key:w", 10000),
];
foreach ($calls as $name => $call) {
    $t = microtime(true);
    $result = $call();
    $ms = 1000 * (microtime(true) - $t);
    echo $name, ': ', var_export($result, true), $ms < 1000 ? ', at once' : sprintf(', %.0f ms', $ms), "\n";
}
$x = new RedLock($servers, 1000, 4);
var_dump($x->lockShared("$key:h", 10000));
echo implode(' ', array_map(fn ($e) => strtok((string) $e, ' '), $x->getLastErrors())), "\n";
foreach ([$a, $b, $c] as $p) {
    rt_redis($p, 'ACL', 'DELUSER', 'h570');
}
?>
--EXPECT--
fenced: false, at once
semaphore: false, at once
shared: false, at once
shared, waitTimeout: false, at once
bool(false)
NOPERM NOPERM NOPERM
