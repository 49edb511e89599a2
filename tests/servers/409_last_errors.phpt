--TEST--
getLastErrors(): per server of the last call, in the constructor's order: null, "taken", "connect: ...", "timeout", a Redis error, or "no reply needed"
--EXTENSIONS--
redlock
--FILE--
<?php
require __DIR__ . '/../inc/redlock_test.inc';
$key = rt_key();
[$p0, $p1, $p2] = rt_ports();
$refused = rt_free_port();
$paused = rt_spawn_server();

/* 2 s for the live servers whose answers are printed (a reply 0.5 s late on a loaded machine read 'timeout', as
 * in combinations/977); the paused server keeps 0.3 s, the refused one's timeout is never reached. */
$redlock = new RedLock([['127.0.0.1', $p0, 2.0], ['127.0.0.1', $p1, 2.0], ['127.0.0.1', $p2, 2.0]], 10, 2);
echo json_encode($redlock->getLastErrors()), "\n"; // before any call: nothing failed
$lock = $redlock->lock($key, 10000);
$errors = $redlock->getLastErrors();
var_dump(count($errors), count(array_filter($errors, fn ($e) => $e === null)) >= 2,
    array_diff($errors, [null, 'no reply needed']));

// Held by someone else: "taken" (from the last of the two attempts).
$other = new RedLock([['127.0.0.1', $p0, 2.0]], 10, 2);
var_dump($other->lock($key, 10000));
echo json_encode($other->getLastErrors()), "\n";
var_dump($redlock->unlock($lock));
// Not ours (any more): unlock reports "taken" too, meaning "not held with our token".
var_dump($other->unlock(['resource' => $key, 'token' => 'not-the-token']));
echo json_encode($other->getLastErrors()), "\n";

// Connection refused, a paused server and a good one: the paused one's vote could still win the
// quorum, so it is awaited until its timeout.
rt_signal($paused, 'STOP');
$mixed = new RedLock([
    ['127.0.0.1', $p0, 2.0],
    ['127.0.0.1', $paused['port'], 0.3],
    ['127.0.0.1', $refused, 0.5],
], 10, 1);
[$result, $ms] = rt_timed(fn () => $mixed->lock("$key-2", 10000));
rt_signal($paused, 'CONT');
var_dump($result, $ms < 3000);
print_r($mixed->getLastErrors());

$nodb = new RedLock(["redis://127.0.0.1:$p0/999"], 10, 1);
var_dump($nodb->lock("$key-3", 10000), $nodb->getLastErrors());

// The servers' order is the constructor's, whatever the keys of $servers; the good server's
// reply was not needed once the refused one had lost the quorum (2 of 2) - or it came first.
$keyed = new RedLock(['b' => ['127.0.0.1', $refused, 0.5], 'a' => ['127.0.0.1', $p0, 2.0]], 10, 1);
$keyed->lock("$key-4", 10000);
$errors = $keyed->getLastErrors();
var_dump(array_keys($errors), $errors[0], in_array($errors[1], [null, 'no reply needed'], true));

class Uninitialized extends RedLock { public function __construct() {} }
try {
    (new Uninitialized())->getLastErrors();
} catch (Error $e) {
    echo $e->getMessage(), "\n";
}
?>
--EXPECT--
[null,null,null]
int(3)
bool(true)
array(0) {
}
bool(false)
["taken"]
bool(true)
bool(false)
["taken"]
bool(false)
bool(true)
Array
(
    [0] => 
    [1] => timeout
    [2] => connect: Connection refused
)
bool(false)
array(1) {
  [0]=>
  string(28) "ERR DB index is out of range"
}
array(2) {
  [0]=>
  int(0)
  [1]=>
  int(1)
}
string(27) "connect: Connection refused"
bool(true)
Uninitialized object is not initialized: its constructor did not run or failed
