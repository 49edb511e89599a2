--TEST--
Releases announce themselves: unlock() PUBLISHes on "redlock:released:<key>" (prefix included) only when it deleted our key, the message the released token (a waiter ignores its own rollback's); a stale unlock() and a lock left to expire publish nothing; option checks for waitTimeout, autoExtend, abortOnLoss
--EXTENSIONS--
redlock
--FILE--
<?php
require __DIR__ . '/../inc/watch.inc';
$key = rt_key();
$port = rt_ports()[0];
$sub = stream_socket_client("tcp://127.0.0.1:$port", $errno, $errstr, 2.0);
stream_set_timeout($sub, 10);
$channel = "redlock:released:p:$key";
fwrite($sub, "*2\r\n\$9\r\nSUBSCRIBE\r\n\$" . strlen($channel) . "\r\n$channel\r\n");
echo json_encode(rt_read_reply($sub)), "\n";

// waitTimeout: this object releases by script, which announces (DELEX/DELIFEQ, used by objects
// without it on Redis >= 8.4 / Valkey >= 9, cannot)
$r = new RedLock(rt_servers(5), 10, 0, ['prefix' => 'p:', 'waitTimeout' => 5000]);
$lock = $r->lock($key, 10000);
var_dump($r->unlock(['resource' => $key, 'token' => str_repeat('0', 32)])); // not ours: nothing
var_dump($r->unlock($lock));                                                  // ours: one message
$short = $r->lock($key, 50);
usleep(200000);                                                               // expired: nothing
$multi = $r->lock([$key, "$key-2"], 10000);
var_dump($r->unlock($multi));                                                 // one message for $key
// In subscribed mode PING answers ["pong", ""]: everything published before it has arrived.
fwrite($sub, "*1\r\n\$4\r\nPING\r\n");
$names = [$lock['token'] => 'the token of $lock', $multi['token'] => 'the token of $multi'];
while (($reply = rt_read_reply($sub)) !== ['pong', '']) {
    $reply[2] = $names[$reply[2]] ?? $reply[2];
    echo json_encode($reply), "\n";
}

foreach ([['waitTimeout' => -1], ['waitTimeout' => '5'], ['autoExtend' => 1], ['abortOnLoss' => null]] as $bad) {
    echo rt_throws(fn () => new RedLock(rt_servers(1), 10, 0, $bad)), "\n";
}
var_dump(new RedLock(rt_servers(1), 10, 0, ['waitTimeout' => null, 'autoExtend' => false, 'abortOnLoss' => false]) instanceof RedLock);
?>
--EXPECTF--
["subscribe","redlock:released:p:%s",1]
bool(false)
bool(true)
bool(true)
["message","redlock:released:p:%s","the token of $lock"]
["message","redlock:released:p:%s","the token of $multi"]
ValueError: RedLock::__construct(): Argument #4 ($options) option "waitTimeout" must be between 0 and 86400000 (ms, one day), or null
TypeError: RedLock::__construct(): Argument #4 ($options) option "waitTimeout" must be of type ?int, string given
TypeError: RedLock::__construct(): Argument #4 ($options) option "autoExtend" must be of type bool, int given
TypeError: RedLock::__construct(): Argument #4 ($options) option "abortOnLoss" must be of type bool, null given
bool(true)
