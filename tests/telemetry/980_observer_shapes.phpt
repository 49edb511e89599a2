--TEST--
Observer: one array per public call, its exact shape, for every kind and every outcome (acquired, contended, released, not_held, extended, valid, capped, lost), run()'s acquisition and release, forceUnlock(); called after the result is known, before the method returns
--EXTENSIONS--
redlock
--FILE--
<?php
require __DIR__ . '/../inc/redlock_test.inc';
$s = rt_servers(5, 1.0);
$seen = [];
$observer = function (array $call) use (&$seen) { $seen[] = $call; };
$r = new RedLock($s, 10, 1, ['observer' => $observer, 'maxExtensions' => 1]);
$other = new RedLock($s, 10, 1);
$key = rt_key();

function shape(array $c): string
{
    $keys = implode(',', array_keys($c));
    // The servers answer in any order: the vote a majority gave, and whether every entry is whole
    // (a float ms for an answer, null for "no reply needed", no eviction warning: the servers do not evict).
    $counts = array_count_values(array_column($c['servers'], 'vote'));
    arsort($counts);
    $votes = $c['servers'] === [] ? '' : sprintf('%d servers, majority %s, %s', count($c['servers']),
        (reset($counts) >= 3 ? key($counts) : 'none'),
        array_filter($c['servers'], fn ($v) => array_keys($v) !== ['vote', 'ms', 'warning', 'clock_jumps'] || $v['warning'] !== null || $v['clock_jumps'] !== 0
            || !($v['vote'] === 'no reply needed' ? $v['ms'] === null : is_float($v['ms']) && $v['ms'] >= 0)) ? 'BAD ENTRIES' : 'entries ok');
    $ok = is_int($c['attempts']) && is_float($c['waited_ms']) && $c['waited_ms'] >= 0
        && (is_null($c['validity_ms']) || (is_float($c['validity_ms']) && $c['validity_ms'] > 0))
        && is_int($c['renewals']) && is_int($c['lost']) ? 'types ok' : 'BAD TYPES';
    return sprintf("%s %s %s %s attempts=%d validity=%s [%s] %s keys=%s", $c['call'], $c['kind'],
        json_encode($c['resource']), $c['outcome'], $c['attempts'], $c['validity_ms'] === null ? 'null' : 'set',
        $votes, $ok, $keys);
}
function flush_seen(array &$seen, string $label): void
{
    echo "-- $label: ", count($seen), " call(s)\n";
    foreach ($seen as $c) {
        echo str_replace($GLOBALS['key'], 'KEY', shape($c)), "\n";
    }
    $seen = [];
}

$lock = $r->lock($key, 5000);
flush_seen($seen, 'lock');
$other->lock("$key:held", 5000);
var_dump($r->lock("$key:held", 5000));
flush_seen($seen, 'contended lock');
$lock = $r->extend($lock, 5000);
flush_seen($seen, 'extend');
var_dump($r->extend($lock, 5000));
flush_seen($seen, 'extend over maxExtensions');
$r->validity($lock);
flush_seen($seen, 'validity');
$r->unlock($lock);
flush_seen($seen, 'unlock');
$r->unlock($lock);
flush_seen($seen, 'unlock again');
var_dump($r->validity($lock));
flush_seen($seen, 'validity of a released lock');
$sh = $r->lockShared("$key:sh", 5000);
$r->unlock($sh);
flush_seen($seen, 'lockShared + unlock');
$sem = $r->lockSemaphore("$key:sem", 2, 5000);
$r->unlock($sem);
flush_seen($seen, 'lockSemaphore + unlock');
$inside = null;
$r->run("$key:run", 5000, function () use (&$seen, &$inside) { $inside = count($seen); });
echo "calls seen when \$fn ran: $inside\n";
flush_seen($seen, 'run');
$r->forceUnlock("$key:held");
flush_seen($seen, 'forceUnlock');
$r->lock([$key . ':a', $key . ':b'], 5000);
flush_seen($seen, 'multi-resource lock');
$f = new RedLock($s, 10, 1, ['observer' => $observer, 'fencing' => true]);
$fl = $f->lock("$key:f", 5000);
$f->unlock($fl);
flush_seen($seen, 'fenced');
// lost: known lost without a round trip (validity ran out on a tracked lock)
$l = $r->lock("$key:short", 50);
usleep(120000);
var_dump($r->validity($l), $r->extend($l, 1000));
flush_seen($seen, 'lost');
// Before the method returns: the observer sees getLastErrors() of this very call.
$g = new RedLock(array_merge(rt_servers(2, 1.0), [['127.0.0.1', rt_free_port(), 0.5]]), 10, 1);
$g->setObserver(function (array $c) use ($g) { echo 'inside: ', json_encode($g->getLastErrors()[2] !== null), ' ', $c['outcome'], "\n"; });
$gl = $g->lock("$key:g", 5000);
$g->setObserver(null);
$g->unlock($gl);
echo "after setObserver(null): nothing more\n";
rt_del("$key:held");
?>
--EXPECTF--
-- lock: 1 call(s)
lock exclusive "KEY" acquired attempts=1 validity=set [5 servers, majority yes, entries ok] types ok keys=call,kind,resource,outcome,attempts,waited_ms,validity_ms,servers,renewals,lost
bool(false)
-- contended lock: 1 call(s)
lock exclusive "KEY:held" contended attempts=1 validity=null [5 servers, majority taken, entries ok] types ok keys=call,kind,resource,outcome,attempts,waited_ms,validity_ms,servers,renewals,lost
-- extend: 1 call(s)
extend exclusive "KEY" extended attempts=1 validity=set [5 servers, majority yes, entries ok] types ok keys=call,kind,resource,outcome,attempts,waited_ms,validity_ms,servers,renewals,lost
bool(false)
-- extend over maxExtensions: 1 call(s)
extend exclusive "KEY" capped attempts=0 validity=null [] types ok keys=call,kind,resource,outcome,attempts,waited_ms,validity_ms,servers,renewals,lost
-- validity: 1 call(s)
validity exclusive "KEY" valid attempts=1 validity=set [5 servers, majority yes, entries ok] types ok keys=call,kind,resource,outcome,attempts,waited_ms,validity_ms,servers,renewals,lost
-- unlock: 1 call(s)
unlock exclusive "KEY" released attempts=1 validity=null [5 servers, majority yes, entries ok] types ok keys=call,kind,resource,outcome,attempts,waited_ms,validity_ms,servers,renewals,lost
-- unlock again: 1 call(s)
unlock exclusive "KEY" not_held attempts=1 validity=null [5 servers, majority taken, entries ok] types ok keys=call,kind,resource,outcome,attempts,waited_ms,validity_ms,servers,renewals,lost
bool(false)
-- validity of a released lock: 1 call(s)
validity exclusive "KEY" not_held attempts=1 validity=null [5 servers, majority taken, entries ok] types ok keys=call,kind,resource,outcome,attempts,waited_ms,validity_ms,servers,renewals,lost
-- lockShared + unlock: 2 call(s)
lockShared shared "KEY:sh" acquired attempts=1 validity=set [5 servers, majority yes, entries ok] types ok keys=call,kind,resource,outcome,attempts,waited_ms,validity_ms,servers,renewals,lost
unlock shared "KEY:sh" released attempts=1 validity=null [5 servers, majority yes, entries ok] types ok keys=call,kind,resource,outcome,attempts,waited_ms,validity_ms,servers,renewals,lost
-- lockSemaphore + unlock: 2 call(s)
lockSemaphore semaphore "KEY:sem" acquired attempts=1 validity=set [5 servers, majority yes, entries ok] types ok keys=call,kind,resource,outcome,attempts,waited_ms,validity_ms,servers,renewals,lost
unlock semaphore "KEY:sem" released attempts=1 validity=null [5 servers, majority yes, entries ok] types ok keys=call,kind,resource,outcome,attempts,waited_ms,validity_ms,servers,renewals,lost
calls seen when $fn ran: 1
-- run: 2 call(s)
run exclusive "KEY:run" acquired attempts=1 validity=set [5 servers, majority yes, entries ok] types ok keys=call,kind,resource,outcome,attempts,waited_ms,validity_ms,servers,renewals,lost
run exclusive "KEY:run" released attempts=1 validity=null [5 servers, majority yes, entries ok] types ok keys=call,kind,resource,outcome,attempts,waited_ms,validity_ms,servers,renewals,lost
-- forceUnlock: 1 call(s)
forceUnlock exclusive "KEY:held" released attempts=1 validity=null [5 servers, majority yes, entries ok] types ok keys=call,kind,resource,outcome,attempts,waited_ms,validity_ms,servers,renewals,lost
-- multi-resource lock: 1 call(s)
lock exclusive ["KEY:a","KEY:b"] acquired attempts=1 validity=set [5 servers, majority yes, entries ok] types ok keys=call,kind,resource,outcome,attempts,waited_ms,validity_ms,servers,renewals,lost
-- fenced: 2 call(s)
lock fenced "KEY:f" acquired attempts=1 validity=set [5 servers, majority yes, entries ok] types ok keys=call,kind,resource,outcome,attempts,waited_ms,validity_ms,servers,renewals,lost
unlock fenced "KEY:f" released attempts=1 validity=null [5 servers, majority yes, entries ok] types ok keys=call,kind,resource,outcome,attempts,waited_ms,validity_ms,servers,renewals,lost
bool(false)
bool(false)
-- lost: 3 call(s)
lock exclusive "KEY:short" acquired attempts=1 validity=set [5 servers, majority yes, entries ok] types ok keys=call,kind,resource,outcome,attempts,waited_ms,validity_ms,servers,renewals,lost
validity exclusive "KEY:short" lost attempts=0 validity=null [] types ok keys=call,kind,resource,outcome,attempts,waited_ms,validity_ms,servers,renewals,lost
extend exclusive "KEY:short" lost attempts=0 validity=null [] types ok keys=call,kind,resource,outcome,attempts,waited_ms,validity_ms,servers,renewals,lost
inside: true acquired
after setObserver(null): nothing more
