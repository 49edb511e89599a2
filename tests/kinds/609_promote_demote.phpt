--TEST--
promote() and demote(): a shared holder becomes the writer only as the one reader left (refused beside another, its read lock kept), never two writers from racing readers (forked processes); demote() lets readers in, keeps writers out and wakes waiting readers; a fenced promote() counts a fence above earlier ones; a promote() that waits keeps its autoExtend read lock alive; demote() inside run() with abortOnLoss is no loss; servers down up to the quorum; bad arrays a ValueError
--EXTENSIONS--
redlock
pcntl
posix
--FILE--
<?php
require __DIR__ . '/../inc/redlock_test.inc';
$servers = rt_servers(5, 1.0);
$a = new RedLock($servers, 10, 1);
$b = new RedLock($servers, 10, 1);
$key = rt_key('pd');

echo "promote() beside another reader: refused, both read locks kept\n";
$ra = $a->lockShared($key, 10000);
$rb = $b->lockShared($key, 10000);
[$promoted, $took] = rt_timed(fn () => $a->promote($ra, 5000));
[$va, $vb] = [$a->validity($ra), $b->validity($rb)];
// Kept: a refused promote() may have converted a's read lock on a server that had not yet seen b's (b's
// lockShared() returns at 3 of 5), and its rollback writes a's reader back there for the promote()'s own
// 5 s; validity() answers from the first quorum of replies, so it may report that shorter key (the mutation
// baseline saw a's at most 5 s once). The values say why on failure.
$why = fn ($v) => $v > 0 ?: sprintf('%s; promote() took %.0f ms; pttls %s', var_export($v, true), $took, json_encode(rt_pttls($key)));
var_dump($promoted, $why($va), $why($vb));
echo "the one reader left: the writer, with a new token; readers and writers kept out\n";
var_dump($b->unlock($rb));
$w = $a->promote($ra, 5000);
var_dump(is_array($w), $w['token'] !== $ra['token'], isset($w['shared']), $w['validity'] > 4000 && $w['validity'] <= 5000);
var_dump($a->validity($ra), $b->lockShared($key, 1000), $b->lock($key, 1000));
var_dump(count(array_filter(array_map(fn ($p) => rt_redis($p, 'GET', $key), rt_ports()), fn ($v) => $v === $w['token'])) >= 3);

echo "demote(): a reader again, others may read, no one may write\n";
$s = $a->demote($w, 6000);
var_dump($s['shared'], $s['token'][0], $a->validity($w), $a->validity($s) > 5000);
$rb = $b->lockShared($key, 1000);
var_dump(is_array($rb), $b->lock($key, 1000));
$b->unlock($rb);
var_dump($a->unlock($s), is_array($l = $b->lock($key, 1000)));
$b->unlock($l);

echo "demote() of a write lock no longer ours: false, the new writer's lock untouched\n";
$w = $a->lock($key, 10000);
$a->forceUnlock($key);
$l = $b->lock($key, 10000);
var_dump($a->demote($w, 5000), $b->validity($l) > 9000, $b->unlock($l));

echo "demote() wakes a reader that waits (its backoff is longer than the wait)\n";
$w = $a->lock($key, 10000);
$pid = pcntl_fork();
if ($pid === 0) {
    $reader = new RedLock(rt_servers(5, 1.0), 120000, 0, ['waitTimeout' => 10000]);
    [$got, $ms] = rt_timed(fn () => $reader->lockShared($key, 2000));
    exit(is_array($got) && $ms < 5000 ? 0 : 1);
}
for ($i = 0; $i < 200 && (rt_redis(rt_ports()[0], 'PUBSUB', 'NUMSUB', "redlock:released:$key")[1] ?? 0) < 1; $i++) {
    usleep(20000);
}
usleep(300000);
$s = $a->demote($w, 5000);
pcntl_waitpid($pid, $status);
var_dump(is_array($s), pcntl_wexitstatus($status));
$a->unlock($s);

echo "racing readers: never two writers, never a reader beside the writer\n";
$race = rt_key('race');
$gauge = rt_key('gauge');
$children = [];
for ($c = 0; $c < 3; $c++) {
    if (($pid = pcntl_fork()) === 0) {
        $r = new RedLock(rt_servers(5, 1.0), 5, 2);
        $port = rt_ports()[0];
        $bad = 0;
        $won = 0;
        $deadline = microtime(true) + 6;
        for ($round = 0; $round < 40 && microtime(true) < $deadline; $round++) {
            if (!($read = $r->lockShared($race, 5000))) {
                usleep(random_int(1000, 5000));
                continue;
            }
            rt_redis($port, 'HINCRBY', $gauge, 'readers', 1);
            usleep(random_int(0, 3000));
            $write = $r->promote($read, 5000);
            if ($write === false) {
                rt_redis($port, 'HINCRBY', $gauge, 'readers', -1);
                $r->unlock($read);
                usleep(random_int(5000, 40000)); // a refused reader steps back: others get turns alone
                continue;
            }
            $won++;
            $readers = rt_redis($port, 'HINCRBY', $gauge, 'readers', -1);
            $writers = rt_redis($port, 'HINCRBY', $gauge, 'writers', 1);
            $bad += ($readers !== 0) + ($writers !== 1);
            usleep(2000);
            rt_redis($port, 'HINCRBY', $gauge, 'writers', -1);
            $r->unlock($write);
        }
        rt_redis($port, 'HINCRBY', $gauge, 'won', $won);
        exit($bad === 0 ? 0 : 1);
    }
    $children[] = $pid;
}
$ok = true;
foreach ($children as $pid) {
    pcntl_waitpid($pid, $status);
    $ok = $ok && pcntl_wexitstatus($status) === 0;
}
var_dump($ok, (int) rt_redis(rt_ports()[0], 'HGET', $gauge, 'won') > 0);

echo "fencing: a promoted lock's fence is above every earlier one\n";
$f = new RedLock($servers, 10, 1, ['fencing' => true]);
$fkey = rt_key('fenced');
$first = $f->lock($fkey, 5000);
$f->unlock($first);
$pf = $f->promote($f->lockShared($fkey, 5000), 5000);
var_dump($pf['fence'] > $first['fence']);
$f->unlock($pf);
$next = $f->lock($fkey, 5000);
var_dump($next['fence'] > $pf['fence']);
$f->unlock($next);

echo "autoExtend: a promote() that waits keeps its read lock, and the writer is renewed\n";
$akey = rt_key('auto');
$auto = new RedLock($servers, 10, 1, ['autoExtend' => true, 'waitTimeout' => 3000]);
$other = $b->lockShared($akey, 900); // leaves by expiry, after three of the reader's ttls
$read = $auto->lockShared($akey, 300);
[$w, $ms] = rt_timed(fn () => $auto->promote($read, 300));
var_dump(is_array($w), $ms > 500);
usleep(900000);
var_dump($auto->validity($w) > 0, $b->lockShared($akey, 300));
var_dump($auto->unlock($w));

echo "demote() of run()'s lock inside \$fn, with abortOnLoss: no loss, run() returns\n";
$guard = new RedLock($servers, 10, 1, ['autoExtend' => true, 'abortOnLoss' => true]);
$rkey = rt_key('run');
$shared = null;
var_dump($guard->run($rkey, 300, function ($lock, $r) use (&$shared) {
    $shared = $r->demote($lock, 300);
    usleep(1000000);
    return 'done';
}));
var_dump($shared['shared'], $guard->validity($shared) > 0);
$guard->unlock($shared);

echo "two servers down of five: still converts; three: false, and the read lock is not taken for a writer\n";
$two = array_merge(array_slice($servers, 0, 3), [['127.0.0.1', 1, 0.2], ['127.0.0.1', 9, 0.2]]);
$d = new RedLock($two, 10, 1);
$dkey = rt_key('down');
$w = $d->promote($d->lockShared($dkey, 5000), 5000);
var_dump(is_array($w), is_array($s = $d->demote($w, 5000)));
$d->unlock($s);
$three = array_merge(array_slice($servers, 0, 2), [['127.0.0.1', 1, 0.2], ['127.0.0.1', 9, 0.2], ['127.0.0.1', 19, 0.2]]);
$d3 = new RedLock($three, 10, 1);
var_dump($d3->promote(['resource' => $dkey, 'token' => 's' . str_repeat('0', 47), 'shared' => true, 'validity' => 1.0], 1000));
var_dump($d3->getLastErrors()[2]);

echo "bad arrays\n";
echo rt_throws(fn () => $a->promote($a->lock(rt_key('x'), 1000), 1000)), "\n";
echo rt_throws(fn () => $a->demote($a->lockShared(rt_key('y'), 1000), 1000)), "\n";
echo rt_throws(fn () => $a->demote($a->lockSemaphore(rt_key('z'), 2, 1000), 1000)), "\n";
echo rt_throws(fn () => $a->demote($a->lock([rt_key('m1'), rt_key('m2')], 1000), 1000)), "\n";
echo rt_throws(fn () => $a->demote(['resource' => $key, 'token' => str_repeat('a', 32)], 0)), "\n";
echo rt_throws(fn () => $a->demote(['resource' => $key, 'token' => str_repeat('a', 32)], 10 ** 16)), "\n";
?>
--EXPECT--
promote() beside another reader: refused, both read locks kept
bool(false)
bool(true)
bool(true)
the one reader left: the writer, with a new token; readers and writers kept out
bool(true)
bool(true)
bool(true)
bool(false)
bool(true)
bool(false)
bool(false)
bool(false)
bool(true)
demote(): a reader again, others may read, no one may write
bool(true)
string(1) "s"
bool(false)
bool(true)
bool(true)
bool(false)
bool(true)
bool(true)
demote() of a write lock no longer ours: false, the new writer's lock untouched
bool(false)
bool(true)
bool(true)
demote() wakes a reader that waits (its backoff is longer than the wait)
bool(true)
int(0)
racing readers: never two writers, never a reader beside the writer
bool(true)
bool(true)
fencing: a promoted lock's fence is above every earlier one
bool(true)
bool(true)
autoExtend: a promote() that waits keeps its read lock, and the writer is renewed
bool(true)
bool(true)
bool(true)
bool(false)
bool(true)
demote() of run()'s lock inside $fn, with abortOnLoss: no loss, run() returns
string(4) "done"
bool(true)
bool(true)
two servers down of five: still converts; three: false, and the read lock is not taken for a writer
bool(true)
bool(true)
bool(false)
string(27) "connect: Connection refused"
bad arrays
ValueError: RedLock::promote(): Argument #1 ($lock) must be a lock from lockShared()
ValueError: RedLock::demote(): Argument #1 ($lock) must be a lock() of one resource (a shared lock is one already)
ValueError: RedLock::demote(): Argument #1 ($lock) must be a lock() of one resource (a semaphore's slot cannot be shared)
ValueError: RedLock::demote(): Argument #1 ($lock) must be a lock() of one resource (lockShared() takes one resource)
ValueError: RedLock::demote(): Argument #2 ($ttl) must be greater than 0
ValueError: RedLock::demote(): Argument #2 ($ttl) must be at most 1000000000000 (ms, about 31.7 years)
