--TEST--
memory:// servers failing on demand: refuse (connections refused, open ones closed), silent (the server's timeout bounds the call), error (an error reply); one of three failing is tolerated, two are not; recover() brings a server back with its keys; getLastErrors() and metrics() see them as for real servers; bad arguments are ValueErrors naming the argument; memory:// names are checked
--EXTENSIONS--
redlock
--SKIPIF--
<?php if (PHP_OS_FAMILY === 'Windows') die('skip memory:// needs unix sockets'); ?>
--FILE--
<?php
require __DIR__ . '/../inc/redlock_test.inc'; // rt_throws()
/* #0 answers yes, unless both failures came first and decided the call ("no reply needed") */
$votes = function (RedLock $r) {
    $e = $r->getLastErrors();
    if ($e[0] === 'no reply needed') {
        $e[0] = null;
    }
    return json_encode($e);
};
$servers = ['memory://fa', 'memory://fb', 'memory://fc'];
$r = new RedLock($servers, 0, 1);

foreach (['refuse', 'silent', 'error'] as $how) {
    RedLockMemory::fail('memory://fb', $how);
    $t = microtime(true);
    $lock = $r->lock("k-$how", 5000);
    $e = $r->getLastErrors();
    // lock() returns on a quorum: fb's error reply may come after fa's and fc's yes (each memory server is
    // a thread; CI's rehearsal at load 10 saw it) and is then not read; the two-down case, where it is
    // needed, shows its text
    if ($how === 'error' && in_array($e[1], ['no reply needed', 'ERR memory server failing on purpose (RedLockMemory::fail)'], true)) {
        $e[1] = 'its error, or no reply needed';
    }
    printf("%s, one down: %s, %s\n", $how, is_array($lock) ? 'locked' : 'not locked', json_encode($e));
    if ($lock) {
        var_dump($r->unlock($lock));
    }
    RedLockMemory::fail('fc', $how);
    $lock = $r->lock("k2-$how", 5000);
    printf("%s, two down: %s, %s\n", $how, var_export($lock, true), $votes($r));
    RedLockMemory::recover('fb');
    RedLockMemory::recover('fc');
}

echo "-- silent is bounded by the server's timeout\n";
RedLockMemory::fail('fb', 'silent');
$t = microtime(true);
$lock = $r->lock('bounded', 5000);
$ms = (microtime(true) - $t) * 1000;
var_dump(is_array($lock), $ms < 1500);
RedLockMemory::recover('fb');

echo "-- keys survive a failure\n";
$held = $r->lock('kept', 60000);
RedLockMemory::fail('fa');
RedLockMemory::recover('fa');
var_dump(array_key_exists('kept', RedLockMemory::keys('fa')), $r->validity($held) > 0);
$before = RedLock::metrics()['server_errors'];
RedLockMemory::fail('fa');
$r->lock('counted', 1000);
$after = RedLock::metrics()['server_errors'];
$address = array_values(array_filter(array_keys($after), fn ($k) => str_ends_with($k, '/fa')))[0] ?? null;
/* its open connection was closed: an 'io' error (or 'connect' when it had none) */
var_dump($address !== null, array_sum($after[$address]) - array_sum($before[$address] ?? []));
RedLockMemory::recover('fa');

echo "-- a demote() without a quorum is rolled back where it landed\n";
$w = $r->lock('dm', 60000);
RedLockMemory::fail('fb', 'error');
RedLockMemory::fail('fc', 'error');
// (the rollback is sent, not waited for: it lands a moment later)
var_dump($r->demote($w, 60000), rt_eventually(fn () => !array_key_exists('dm', RedLockMemory::keys('fa'))));
echo "-- so is a semaphore's slot\n";
var_dump($r->lockSemaphore('sem', 2, 60000), rt_eventually(fn () => !preg_grep('/^sem:/', array_keys(RedLockMemory::keys('fa')))));
RedLockMemory::recover('fb');
RedLockMemory::recover('fc');

echo "-- the commands a client of its own may send, over the server's socket\n";
$link = stream_socket_client('unix://' . rt_memory_socket('fa'), $errno, $errstr, 2.0);
stream_set_timeout($link, 5);
$send = function (string ...$args) use ($link) {
    $out = '*' . count($args) . "\r\n";
    foreach ($args as $a) {
        $out .= '$' . strlen($a) . "\r\n$a\r\n";
    }
    fwrite($link, $out);
    $reply = rt_read_reply($link);
    return $reply instanceof Throwable ? 'error: ' . $reply->getMessage() : $reply;
};
$answers = [$send('PING'), $send('AUTH', 'secret'), $send('SELECT', '0'), $send('SET', 'raw', 'v1', 'NX', 'PX', '5000'),
    $send('SET', 'raw', 'v2', 'NX', 'PX', '5000'), $send('GET', 'raw'), $send('PTTL', 'raw') > 4000,
    $send('EXISTS', 'raw', 'none'), $send('DEL', 'raw', 'none'), $send('EXISTS', 'raw'), $send('PTTL', 'raw'),
    $send('SUBSCRIBE', 'redlock:released:raw')];
echo json_encode($answers), "\n";
fclose($link);

echo "-- arguments\n";
echo rt_throws(fn () => RedLockMemory::fail('fa', 'explode')), "\n";
echo rt_throws(fn () => RedLockMemory::fail('memory://nobody')), "\n";
echo rt_throws(fn () => RedLockMemory::keys('memory://')), "\n";
echo rt_throws(fn () => RedLockMemory::advance(-1)), "\n";
echo rt_throws(fn () => new RedLock(['memory://bad name'])), "\n";
echo rt_throws(fn () => new RedLock(['memory://'])), "\n";
?>
--EXPECTF--
refuse, one down: locked, [null,"connect: Connection refused",null]
bool(true)
refuse, two down: false, [null,"connect: Connection refused","%s"]
silent, one down: locked, [null,"no reply needed",null]
bool(true)
silent, two down: false, [null,"timeout","timeout"]
error, one down: locked, [null,"its error, or no reply needed",null]
bool(true)
error, two down: false, [null,"ERR memory server failing on purpose (RedLockMemory::fail)","ERR memory server failing on purpose (RedLockMemory::fail)"]
-- silent is bounded by the server's timeout
bool(true)
bool(true)
-- keys survive a failure
bool(true)
bool(true)
bool(true)
int(1)
-- a demote() without a quorum is rolled back where it landed
bool(false)
bool(true)
-- so is a semaphore's slot
bool(false)
bool(true)
-- the commands a client of its own may send, over the server's socket
["PONG","OK","OK","OK",null,"v1",true,1,1,0,-2,"error: ERR memory:\/\/ servers do not notify waiters"]
-- arguments
ValueError: RedLockMemory::fail(): Argument #2 ($how) must be "refuse", "silent" or "error"
ValueError: RedLockMemory::fail(): Argument #1 ($server) names no memory server of this process (a RedLock object creates it)
ValueError: RedLockMemory::keys(): Argument #1 ($server) must name a memory server, like "memory://a"
ValueError: RedLockMemory::advance(): Argument #1 ($ms) must be between 0 and 10^12 ms
ValueError: RedLock::__construct(): Argument #1 ($servers) server #0 memory URI names take letters, digits, '.', '_' and '-' only
ValueError: RedLock::__construct(): Argument #1 ($servers) server #0 memory URI must name its server in 1 to 64 characters, like memory://a
