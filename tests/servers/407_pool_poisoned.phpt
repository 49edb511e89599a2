--TEST--
Persistent connections: one left owing a reply (paused server, timeout) is pooled without waiting, with that debt counted; the next user drops the late reply and reuses it, never out of step; credentials are part of the pool key
--EXTENSIONS--
redlock
--FILE--
<?php
require __DIR__ . '/../inc/redlock_test.inc';
$srv = rt_spawn_server();
$port = $srv['port'];
[$p0, $p1] = rt_ports();
$key = rt_key();
$connects = fn () => rt_info($port, 'total_connections_received');
// Two of two: every call waits for the private server's answer.
// Generous timeouts where an answer is expected: under valgrind the private server is slow.
$pair = [['127.0.0.1', $p0, 5.0], ['127.0.0.1', $port, 5.0]];
$three = [['127.0.0.1', $p0, 5.0], ['127.0.0.1', $p1, 5.0], ['127.0.0.1', $port, 5.0]];
$base = $connects();

$pre = new RedLock($pair, 10, 1);
var_dump($pre->unlock($pre->lock("$key-1", 10000)), $connects() - $base);
unset($pre); // both connections are clean: pooled

// Paused: the two shared servers win the quorum while our SET to it is still in flight.
$a = new RedLock($three, 10, 1);
rt_signal($srv, 'STOP');
$lock = $a->lock("$key-2", 10000);
var_dump($lock !== false, $a->getLastErrors()[2]);
unset($a); // no wait: the paused server's connection is pooled still owing its reply
var_dump(rt_pool_stats()['idle']); // all three went back
rt_signal($srv, 'CONT');
usleep(100000);
var_dump(rt_redis($port, 'GET', "$key-2") === $lock['token']); // our SET did land, later

$b = new RedLock($pair, 10, 1);
var_dump($b->unlock($lock), $b->getLastErrors(), $connects() - $base); // the late reply dropped, reused: 1
unset($b);
$c = new RedLock($pair, 10, 1);
var_dump($c->unlock($c->lock("$key-3", 10000)), $connects() - $base); // reused again: still 1

// Timed out on its own: a single paused server fails the call and its connection is closed.
rt_signal($srv, 'STOP');
var_dump((new RedLock([['127.0.0.1', $port, 0.2]], 10, 1))->lock("$key-4", 10000));
unset($c); // $c's connection is idle and clean: it goes back to the pool...
rt_signal($srv, 'CONT');
usleep(100000);
$d = new RedLock([['127.0.0.1', $port, 5.0]], 10, 1);
var_dump($d->unlock($d->lock("$key-5", 10000)), $d->getLastErrors());
// ...and is reused. The timed-out object connected once (its release queued behind the unanswered
// SET on the same stream); pooled with both replies owed, it is dropped at the next check-out... or
// reused once they arrived: either way 1 + 1 = 2 connects, and no call ever sees a reply not its own.
var_dump($connects() - $base);

// Another password never gets a connection authenticated with a different one.
rt_redis($port, 'CONFIG', 'SET', 'requirepass', 'pw1');
$e = new RedLock(["redis://:pw1@127.0.0.1:$port?timeout=5"], 10, 1);
var_dump($e->unlock($e->lock("$key-6", 10000)));
unset($e);
$f = new RedLock(["redis://:wrong@127.0.0.1:$port?timeout=5"], 10, 1);
var_dump($f->lock("$key-7", 10000), $f->getLastErrors()[0]);
?>
--EXPECT--
bool(true)
int(1)
bool(true)
string(15) "no reply needed"
int(3)
bool(true)
bool(true)
array(2) {
  [0]=>
  NULL
  [1]=>
  NULL
}
int(1)
bool(true)
int(1)
bool(false)
bool(true)
array(1) {
  [0]=>
  NULL
}
int(2)
bool(true)
bool(false)
string(61) "WRONGPASS invalid username-password pair or user is disabled."
