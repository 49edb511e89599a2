<?php
/* One chaos worker (started by verify/chaos/run.php, never by hand): loops lock -> guarded critical
 * section -> unlock on one of the shared resources until its time or count runs out, then
 * writes its tallies as JSON and its acquire latencies as packed floats.
 *
 * The guard lives on a separate redis-server that the chaos loop never touches:
 *   owner key: SET NX to "id|valid-until" on entry; finding it taken means two holders at once.
 *              It is classed by the two locks' validity (hrtime: CLOCK_MONOTONIC, shared by all
 *              processes on the machine): both still valid = a violation of the lock; the other
 *              (or we) already past validity = a holder that stalled beyond its lease (the
 *              scheduler on a loaded machine: the case fencing tokens exist for, seed 001).
 *   counter:   GET, (sleep), SET +1; a lost update shows up as counter != acquisitions. A write
 *              that ends after our validity is counted as late: it may explain a lost update.
 *   exit:      delete owner only if it is still us (atomic script).
 * Every acquisition also logs its use interval [acquired, min(unlock called, valid until)]:
 * run.php checks that no two intervals of one resource overlap, the lock's own promise. */

require __DIR__ . '/resp.php';
require __DIR__ . '/history.php';

$cfg = json_decode($argv[1] ?? '', true, 16, JSON_THROW_ON_ERROR);
$id = "w{$cfg['id']}-" . getmypid();
$servers = $cfg['servers'] ?? array_map(fn ($p) => ['127.0.0.1', $p, $cfg['server_timeout']], $cfg['lock_ports']);
if (($cfg['mode'] ?? 'lock') !== 'lock') { /* lockSemaphore(), lockShared(), fencing: no guard server */
    require __DIR__ . '/worker_primitives.php';
    exit(0);
}
/* auto_extend: locks renewed by the extension's thread ('autoExtend') and held for hold_slices x
 * sleep_us, several ttls; after each slice validity() says whether it is still ours (at once, with
 * no round trip, once a renewal found it lost). The use interval then ends at the last time it was
 * confirmed held (the check's start + the validity it returned), not at the first ttl. */
$autoExtend = !empty($cfg['auto_extend']);
$options = $autoExtend ? ['autoExtend' => true] : [];
if (($cfg['wait_timeout'] ?? null) !== null) {
    $options['waitTimeout'] = $cfg['wait_timeout']; /* wait for releases rather than retryCount attempts */
}
/* History (verify/chaos/history.php, checked by verify/chaos/checker.php): every call with its invoke and completion
 * time, outcome, token, fence and promised validity; renewals (the observer's count), onLoss and clock-jump
 * warnings (the observer's per-server clock_jumps grew); each
 * write to the fenced resource with its fence and whether that resource accepted it. */
$hist = new History($cfg['history'] ?? null, $id);
/* kind fair / fairsem (issue 36): lock() / lockSemaphore() on an object with 'fair' => true and waitTimeout, on
 * resources of their own (an object without fair on the same resource would pass the queue, docs/design/fair.md),
 * without fencing (refused with fair); each lock record says fair and its waitTimeout (a semaphore's: its limit
 * and slot) for the checker's fair rules. Records are flushed after each call and before each unlock(): a worker
 * SIGKILLed (--kill-workers) loses only the call it was in, and never the invoke of an unlock (below). */
$fairKind = in_array($cfg['kind'] ?? 'plain', ['fair', 'fairsem'], true) ? $cfg['kind'] : null;
if ($fairKind !== null) {
    $options['fair'] = true;
    $options['waitTimeout'] = (int) $cfg['fair_wait_timeout'];
    $cfg['fencing'] = false;
}
$fencing = !empty($cfg['fencing']);
if ($fencing) {
    $options['fencing'] = true;
}
$curRes = null;
if ($hist->on()) {
    $clockJumps = 0;
    $options['observer'] = function (array $call) use ($hist, &$clockJumps): void {
        if (($call['renewals'] ?? 0) > 0 || ($call['lost'] ?? 0) > 0) {
            $hist->add(['op' => 'renewals', 't1' => hrtime(true), 'out' => 'ok', 'renewals' => $call['renewals'],
                'lost' => $call['lost']]);
        }
        /* a server's clock jump, as the object counts it per server: a signal to this worker's holder */
        $jumps = array_sum(array_column($call['servers'] ?? [], 'clock_jumps'));
        if ($jumps > $clockJumps) {
            $clockJumps = $jumps;
            $hist->add(['op' => 'clock-warning', 't1' => hrtime(true), 'out' => 'ok', 'jumps' => $jumps]);
        }
    };
    if ($autoExtend) {
        $options['onLoss'] = function (array $lock, string $reason) use ($hist): void {
            $t = hrtime(true);
            $hist->add(['op' => 'loss', 'res' => $lock['resource'] ?? null, 't0' => $t, 't1' => $t, 'out' => 'ok',
                'token' => $lock['token'] ?? null, 'reason' => $reason]);
        };
    }
}
if (($cfg['from_cluster'] ?? null) !== null) { /* verify/chaos/cluster.php */
    /* fromCluster() asks the seeds for the masters: a seed slow to answer (a failover under way, a loaded
     * machine) is server trouble, not a verdict; asked again for up to 30 s, as an application would */
    for ($until = microtime(true) + 30;;) {
        try {
            $redlock = RedLock::fromCluster($cfg['from_cluster'], $cfg['retry_delay'], $cfg['retry_count'], $options);
            break;
        } catch (RedLockException $e) {
            if (microtime(true) > $until) {
                throw $e;
            }
            usleep(200000);
        }
    }
} else {
    $redlock = new RedLock($servers, $cfg['retry_delay'], $cfg['retry_count'], $options);
}
$guard = Resp::connect($cfg['guard_port']);
if ($guard === null) {
    fwrite(STDERR, "$id: cannot reach the guard server\n");
    exit(2);
}
$releaseIfMine = "if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) else return 0 end";
/* The fenced resource: accepts a write whose fence is at least the largest it accepted; every write gets
 * its place in the resource's own order (seq), accepted or not. */
$fencedWrite = "local seq = redis.call('INCR', KEYS[2]) local top = tonumber(redis.call('GET', KEYS[1]) or '-1') "
    . "if tonumber(ARGV[1]) >= top then redis.call('SET', KEYS[1], ARGV[1]) return {1, seq} end return {0, seq}";
/** One call, recorded: ok with its result, fail on false, info on an exception (rethrown never: the
 * loop goes on, as an application that logs and retries would). */
$hcall = function (string $op, string $resource, callable $fn, ?array $lock = null, array $extra = []) use ($hist) {
    $t0 = hrtime(true);
    try {
        $r = $fn();
        $out = $r === false ? 'fail' : 'ok';
    } catch (Throwable $e) {
        $r = false;
        $out = 'info';
    }
    $t1 = hrtime(true);
    if ($hist->on()) {
        $rec = ['op' => $op, 'res' => $resource, 't0' => $t0, 't1' => $t1, 'out' => $out];
        $src = is_array($r) ? $r : $lock;
        if ($src !== null) {
            $rec['token'] = $src['token'] ?? null;
            if (isset($src['fence'])) {
                $rec['fence'] = $src['fence'];
            }
        }
        if (is_array($r) && isset($r['validity'])) {
            $rec['validity'] = $r['validity'];
        } elseif (is_float($r) || is_int($r)) {
            $rec['validity'] = $r;
        }
        if ($out === 'info') {
            $rec['error'] = substr($e->getMessage(), 0, 120);
        }
        if (is_array($r) && isset($r['slot'])) {
            $rec['slot'] = $r['slot'];
        }
        $hist->add($rec + $extra);
    }
    return $r;
};

$tally = [
    'id' => $id, 'acquisitions' => 0, 'lock_false' => 0, 'unlock_false' => 0,
    'overlap_within_validity' => 0, 'overlap_after_expiry' => 0, 'overlap_ambiguous' => 0,
    'overlap_on_exit' => 0, 'overruns' => 0, 'late_writes' => 0, 'lost_while_held' => 0,
    'per_resource' => array_fill(0, $cfg['resources'], 0), 'examples' => [], 'first_violation_ns' => null,
];
$latencies = '';
$intervals = '';
$deadline = hrtime(true) + (int) ($cfg['duration'] * 1e9);
$maxAcquisitions = $cfg['max_acquisitions'];
$sleepUs = $cfg['sleep_us'];
$sleepUsMax = max($sleepUs, $cfg['sleep_us_max'] ?? 0);   /* netchaos: a random time in [sleep_us, sleep_us_max] */

/* The holder's part, between acquiring and releasing: the guard's owner key and counter, the hold
 * (autoExtend: validity() after each slice), the write to the fenced resource. Returns the time it
 * stopped using the lock. */
$holdMarginNs = (int) (($cfg['hold_margin_us'] ?? 1000) * 1000);
$hold = function (array $lock, int $t1, int $r, string $resource) use (&$tally, &$intervals, $cfg, $id, $guard, $redlock,
    $autoExtend, $sleepUs, $sleepUsMax, $releaseIfMine, $fencedWrite, $hist, $hcall, $fencing, $holdMarginNs): int {
    $validUntil = $t1 + (int) ($lock['validity'] * 1e6);
    $ownerKey = "chaos:{$cfg['run']}:owner:$r";
    $counterKey = "chaos:{$cfg['run']}:counter:$r";
    $me = "$id|$validUntil";
    $ts = hrtime(true);
    $entered = $guard->call('SET', $ownerKey, $me, 'NX');
    $te = hrtime(true);
    if ($entered !== 'OK') {
        $other = $guard->call('GET', $ownerKey);
        $otherUntil = is_string($other) ? (int) explode('|', $other)[1] : 0;
        $bothValidUntil = min($validUntil, $otherUntil);
        if ($other !== null && $te < $bothValidUntil) {
            $kind = 'overlap_within_validity';
        } elseif ($other !== null && $ts >= $bothValidUntil) {
            $kind = 'overlap_after_expiry';
        } else {
            $kind = 'overlap_ambiguous';
        }
        $tally[$kind]++;
        if ($kind === 'overlap_within_validity') {
            $tally['first_violation_ns'] ??= $te;
        }
        if (count($tally['examples']) < 5) {
            $tally['examples'][] = sprintf('%s: %s held by %s; ours valid %+.1f ms, theirs %+.1f ms after the check',
                $kind, $resource, var_export($other, true), ($validUntil - $te) / 1e6, ($otherUntil - $te) / 1e6);
        }
    }
    $count = (int) $guard->call('GET', $counterKey);
    if ($autoExtend) {
        for ($s = 0; $s < $cfg['hold_slices']; $s++) {
            usleep($sleepUs);
            $tc = hrtime(true);
            $v = $hcall('validity', $resource, fn () => $redlock->validity($lock), $lock);
            if ($v === false) {
                $tally['lost_while_held']++;
                break;
            }
            $validUntil = max($validUntil, $tc + (int) ($v * 1e6));
        }
    } elseif ($sleepUsMax > 0) {
        usleep($sleepUsMax > $sleepUs ? mt_rand($sleepUs, $sleepUsMax) : $sleepUs);
    }
    if (!empty($cfg['extend'])) { /* extend() once: its promise replaces the lock's */
        $x = $hcall('extend', $resource, fn () => $redlock->extend($lock, $cfg['ttl']), $lock);
        if (is_array($x)) {
            $validUntil = max($validUntil, hrtime(true) + (int) ($x['validity'] * 1e6));
        }
    }
    if (!empty($cfg['hold_to_validity'])) { /* use the lease to its promised end, less a margin */
        $left = $validUntil - $holdMarginNs - hrtime(true);
        if ($left > 0) {
            usleep(intdiv($left, 1000));
        }
    }
    $guard->call('SET', $counterKey, (string) ($count + 1));
    if ($fencing) {
        $tw = hrtime(true);
        $res = $guard->call('EVAL', $fencedWrite, '2', "chaos:{$cfg['run']}:fenced:$r", "chaos:{$cfg['run']}:fseq:$r",
            (string) $lock['fence']);
        $hist->add(['op' => 'write', 'res' => $resource, 't0' => $tw, 't1' => hrtime(true), 'out' => 'ok',
            'token' => $lock['token'], 'fence' => $lock['fence'], 'accepted' => $res[0] === 1, 'seq' => $res[1]]);
    }
    if (hrtime(true) > $validUntil) {
        $tally['late_writes']++;
    }
    if ($entered === 'OK' && $guard->call('EVAL', $releaseIfMine, '1', $ownerKey, $me) !== 1) {
        $tally['overlap_on_exit']++;
        $tally['first_violation_ns'] ??= hrtime(true);
    }
    $tu = hrtime(true);
    /* Past its validity the lock may legitimately have passed on: the holder overran its lease. */
    if ($tu > $validUntil) {
        $tally['overruns']++;
    }
    $intervals .= pack('qqq', $r, $t1, min($tu, $validUntil));
    return $tu;
};

/* A fair worker may be SIGKILLed inside unlock() (--kill-workers) after the release reached a quorum: its unlock
 * record would be lost and its promise seem to run on, a false overlap. So the unlock's invoke is written first
 * ("unlock-begin", flushed), where the checker ends the holder's use as at an unlock. */
$unlockBegins = function (string $resource, array $lock) use ($hist): void {
    $t = hrtime(true);
    $hist->add(['op' => 'unlock-begin', 'res' => $resource, 't0' => $t, 't1' => $t, 'out' => 'ok', 'token' => $lock['token']]);
    $hist->flush();
};

/* fork_in_run: the lock taken by run(); inside $fn a child is forked, which exits at once (as a worker
 * forked for a side job would); the parent waits for it, then holds as usual. A child must not release
 * its parent's lock. */
$forkInRun = !empty($cfg['fork_in_run']);

/* coroutines = C > 1 (the runner gives it only with Swoole loaded): C coroutines of this process share the one
 * RedLock object, each running the loop below; sleeps yield (SWOOLE_HOOK_SLEEP) and so do the extension's
 * waits, while the guard's and the history's blocking I/O do not, so records are never interleaved. */
$coroutines = max(1, (int) ($cfg['coroutines'] ?? 1));
$loop = function (int $c) use (&$tally, &$latencies, $cfg, $redlock, $hist, $hcall, $hold, $forkInRun, $deadline,
    $maxAcquisitions, $coroutines, $fairKind, $unlockBegins): int {
for ($call = $c; $call < $cfg['max_calls'] && $tally['acquisitions'] < $maxAcquisitions; $call += $coroutines) {
    if (hrtime(true) >= $deadline) {
        break;
    }
    $r = $call % $cfg['resources'];
    $resource = "chaos:{$cfg['run']}:res:$r";
    if ($fairKind !== null) { /* resources of their own: fair:<i> (guard and intervals under index resources + i), fsem:<i> */
        $fr = $call % max(1, (int) $cfg['fair_resources']);
        $r = $cfg['resources'] + $fr;
        $resource = "chaos:{$cfg['run']}:" . ($fairKind === 'fair' ? 'fair' : 'fsem') . ":$fr";
    }
    $t0 = hrtime(true);
    if ($fairKind === 'fairsem') {
        /* lockSemaphore() with fair: held sleep_us, no guard (several holders are its promise); the checker counts
         * the holders of its promised intervals against the limit */
        $limit = (int) $cfg['fair_limit'];
        $lock = $hcall('lock', $resource, fn () => $redlock->lockSemaphore($resource, $limit, $cfg['ttl']), null,
            ['fair' => true, 'wait_timeout' => (int) $cfg['fair_wait_timeout'], 'limit' => $limit]);
        $hist->flush();
        if ($lock === false) {
            $tally['lock_false']++;
        } else {
            $latencies .= pack('g', (hrtime(true) - $t0) / 1e6);
            $tally['acquisitions']++;
            usleep($cfg['sleep_us']);
            $unlockBegins($resource, $lock);
            if (!$hcall('unlock', $resource, fn () => $redlock->unlock($lock), $lock)) {
                $tally['unlock_false']++;
            }
        }
        $hist->flush();
        continue;
    }
    if ($forkInRun) {
        $got = false;
        try {
            $redlock->run($resource, $cfg['ttl'], function (array $lock) use (&$got, &$tally, &$latencies, $t0, $r, $resource, $hist, $hold) {
                $t1 = hrtime(true);
                $got = true;
                $hist->add(['op' => 'lock', 'res' => $resource, 't0' => $t0, 't1' => $t1, 'out' => 'ok', 'via' => 'run',
                    'token' => $lock['token'], 'validity' => $lock['validity']] + (isset($lock['fence']) ? ['fence' => $lock['fence']] : []));
                $latencies .= pack('g', ($t1 - $t0) / 1e6);
                $tally['acquisitions']++;
                $tally['per_resource'][$r]++;
                $tf = hrtime(true);
                $pid = pcntl_fork();
                if ($pid === 0) {
                    exit(0);
                }
                if ($pid > 0) {
                    pcntl_waitpid($pid, $status);
                    /* recorded: the child has exited (run()'s release in it must not have touched our keys) */
                    $hist->add(['op' => 'fork', 'res' => $resource, 't0' => $tf, 't1' => hrtime(true), 'out' => 'ok',
                        'token' => $lock['token'], 'child' => $pid, 'status' => pcntl_wexitstatus($status)]);
                }
                $tu = $hold($lock, $t1, $r, $resource);
                $hist->add(['op' => 'unlock', 'res' => $resource, 't0' => $tu, 't1' => null, 'out' => 'info', 'via' => 'run',
                    'token' => $lock['token']]);
            });
        } catch (RedLockException $e) {
            if (!$got) {
                $hist->add(['op' => 'lock', 'res' => $resource, 't0' => $t0, 't1' => hrtime(true), 'out' => 'fail', 'via' => 'run']);
                $tally['lock_false']++;
            }
        }
        continue;
    }
    $lock = $hcall('lock', $resource, fn () => $redlock->lock($resource, $cfg['ttl']), null,
        $fairKind !== null ? ['fair' => true, 'wait_timeout' => (int) $cfg['fair_wait_timeout']] : []);
    $t1 = hrtime(true);
    $fairKind !== null && $hist->flush();
    if ($lock === false) {
        $tally['lock_false']++;
        continue;
    }
    $latencies .= pack('g', ($t1 - $t0) / 1e6);
    $tally['acquisitions']++;
    $tally['per_resource'][$r] = ($tally['per_resource'][$r] ?? 0) + 1;
    $hold($lock, $t1, $r, $resource);
    $fairKind !== null && $unlockBegins($resource, $lock);
    if (!$hcall('unlock', $resource, fn () => $redlock->unlock($lock), $lock)) {
        $tally['unlock_false']++;
    }
    $fairKind !== null && $hist->flush();
}
return $call;
};
/* the worker's kind (verify/chaos/run.php's --kinds), for the reader of its history: the checker skips it */
$hist->add(['op' => 'run', 't1' => hrtime(true), 'out' => 'ok', 'kind' => $cfg['kind'] ?? 'plain', 'coroutines' => $coroutines]
    + ($coroutines > 1 ? ['swoole' => phpversion('swoole')] : []));
if ($coroutines > 1) {
    Swoole\Runtime::enableCoroutine(SWOOLE_HOOK_SLEEP);
    $calls = 0;
    Swoole\Coroutine\run(function () use ($loop, $coroutines, &$calls): void {
        for ($c = 0; $c < $coroutines; $c++) {
            Swoole\Coroutine::create(function () use ($loop, $c, &$calls): void {
                $calls += $loop($c);
            });
        }
    });
    $call = $calls;
} else {
    $call = $loop(0);
}
$hist->flush();
$tally['calls'] = $call;
file_put_contents($cfg['out'] . '.lat', $latencies);
file_put_contents($cfg['out'] . '.iv', $intervals);
file_put_contents($cfg['out'] . '.json', json_encode($tally));
