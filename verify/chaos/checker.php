<?php
/* The checker (issue 33): reads the histories of any chaos run (verify/chaos/history.php: JSON lines) and
 * checks the lock's guarantee as one property. See docs/design/verification.md.
 *
 *   php verify/chaos/checker.php [--json] [--quiet] [--in-memory] [--horizon=S] FILE|DIR...    (a DIR: every *.jsonl in it)
 *   exit 0: no violation; 1: a violation; 2: bad input
 *
 * It streams (checker_stream(), class Checker): the files, each in time order, are merged, one record per
 * file held, and only what the rules still need is kept: holders until they are unlocked and swept, the
 * holder reaching furthest, the fence steps and fenced writes of the last S seconds (--horizon, 60), the
 * faults outside the model. A lock call or a write's record arriving more than S late, or a file out of
 * order, stops it with exit 2 (never a wrong verdict); --in-memory reads everything first and sorts any
 * order (checker_read(), the reader before a run of 10^6 acquisitions needed streaming: same verdicts).
 *
 * Per resource:
 *  1. Exclusion. A holder is a lock call that completed ok. Its promised interval runs from that call's
 *     completion to completion + the validity it returned, stretched by every later promise to the same
 *     holder (worker and token): an extend() ok (its completion + its validity), a validity() ok (its
 *     invoke + the value: the earliest it can have measured from). It ends early at the holder's unlock
 *     (the unlock's invoke: the holder stopped using it there; or an unlock-begin, that invoke written first). Two holders' intervals must not overlap.
 *  2. Fences. The fenced resource never accepts a write (in its own order, seq) whose fence is below a
 *     fence it accepted before. And a lock that completed before another lock of the resource was invoked
 *     has a smaller fence (the lock's promise that makes 1 hold for writes).
 *  Indeterminate outcomes (out = info: an exception, a timeout, a crash, a call that never completed)
 *  count as possibly acquired: never a holder (nobody used them), never proof that nobody held the lock;
 *  a write or fence of a token no ok lock returned is attributed to nobody and judged only by rule 2's
 *  first half. So a crash never makes a violation.
 *  Faults outside the model (records {"op":"fault","in_model":false,"t":ns,"scope":prefix}: a server's
 *  clock jump, a restart without persistence, K >= N/2 servers lost at once) break the promise by
 *  design: an overlap or fence inversion whose earlier holder was invoked before such a fault and whose
 *  later one was invoked after it is counted apart (outside_model), not as a violation (for an overlap,
 *  earlier means invoked first: of two concurrent acquisitions the later to complete may be the one
 *  whose key the fault lost, so the fault counts from the first invoke to the second completion); for each such
 *  overlap the stale holder's first call to complete after the rival acquired is looked at: signalled (it
 *  failed, or onLoss came), not_signalled (it succeeded), or no_later_call (the holder made none).
 *  A fault with "fences_in_model":false (a restart without persistence, even a delayed one that is in the model
 *  for exclusion: the fence counters are lost with the server's memory) excuses fence inversions across it the
 *  same way, not overlaps.
 *  3. A semaphore (lock records with "limit": L, lockSemaphore()): no more than L holders' intervals overlap at
 *     once (rule 1 is the case L = 1).
 *  4. Fair waiting (lock records with "fair": true and their "wait_timeout", issue 36), judged at the end over the
 *     fair calls, kept in memory, in fault-free stretches only (no fault record of the run in [invoke - 1 s,
 *     completion]): no starvation (a fair call that returned false must have waited its waitTimeout, and the
 *     queue it found must not have fitted in it: ceil(q / L) x (h + 250 ms) + 1 s, q the fair calls of the
 *     resource waiting or holding at its invoke, h the longest fair hold during its wait, is not below
 *     waitTimeout); no bypass (lock() only: a fair
 *     call invoked 1 s or more after a waiter's invoke, by when that waiter has drawn its ticket, completes
 *     before it). The longest wait is reported beside its bound. See docs/design/verification.md. */

declare(strict_types=1);

/** @param list<string> $paths @return list<array> the records, in file order */
function checker_read(array $paths): array
{
    $records = [];
    foreach ($paths as $path) {
        $files = is_dir($path) ? (glob(rtrim($path, '/') . '/*.jsonl') ?: []) : [$path];
        sort($files);
        foreach ($files as $file) {
            $fh = fopen($file, 'r');
            if ($fh === false) {
                throw new RuntimeException("cannot read $file");
            }
            $n = 0;
            while (($line = fgets($fh)) !== false) {
                $n++;
                if (trim($line) === '') {
                    continue;
                }
                $rec = json_decode($line, true);
                if (!is_array($rec) || !isset($rec['op'])) {
                    /* a worker killed mid-write leaves a torn last line: skipped, it is no operation */
                    if (feof($fh)) {
                        continue;
                    }
                    throw new RuntimeException("$file:$n: not a history record");
                }
                $records[] = $rec;
            }
            fclose($fh);
        }
    }
    return $records;
}

/** The records of history files in time order (completion; invoke for a call that never completed; t for a
 * fault), read as a stream: a k-way merge of the files, each already in that order (a worker writes a call's
 * record after it completes, the chaos loop its faults as they happen). Only one record per file is held.
 * Ties keep file order (files sorted by name), as a stable sort of all records would. A file out of order
 * is an error: the in-memory reader (--in-memory) sorts any order.
 * @param list<string> $paths @return Generator<int, array> */
function checker_stream(array $paths): Generator
{
    $files = [];
    foreach ($paths as $path) {
        $list = is_dir($path) ? (glob(rtrim($path, '/') . '/*.jsonl') ?: []) : [$path];
        sort($list);
        array_push($files, ...$list);
    }
    $handles = $lines = $last = [];
    $next = function (int $i) use (&$handles, &$files, &$lines, &$last): ?array {
        $fh = $handles[$i];
        while (($line = fgets($fh)) !== false) {
            $lines[$i]++;
            if (trim($line) === '') {
                continue;
            }
            $rec = json_decode($line, true);
            if (!is_array($rec) || !isset($rec['op'])) {
                if (feof($fh)) {
                    continue; /* a torn last line: a worker killed mid-write; no operation */
                }
                throw new RuntimeException("{$files[$i]}:{$lines[$i]}: not a history record");
            }
            $key = (int) ($rec['t1'] ?? $rec['t0'] ?? $rec['t'] ?? 0);
            if ($key < $last[$i]) {
                throw new RuntimeException("{$files[$i]}:{$lines[$i]}: not in time order (the streaming reader needs each file in order; use --in-memory)");
            }
            $last[$i] = $key;
            return [$key, $i, $rec];
        }
        return null;
    };
    $heap = new SplMinHeap(); /* [time, file index, record]: ties by file index */
    foreach ($files as $i => $file) {
        $fh = fopen($file, 'r');
        if ($fh === false) {
            throw new RuntimeException("cannot read $file");
        }
        $handles[$i] = $fh;
        $lines[$i] = 0;
        $last[$i] = PHP_INT_MIN;
        if (($e = $next($i)) !== null) {
            $heap->insert($e);
        }
    }
    while (!$heap->isEmpty()) {
        [, $i, $rec] = $heap->extract();
        yield $rec;
        if (($e = $next($i)) !== null) {
            $heap->insert($e);
        }
    }
    foreach ($handles as $fh) {
        fclose($fh);
    }
}

/** A holder: a lock call that completed ok, and what later calls of the same worker and token promised. */
final class CheckerHolder
{
    public bool $open = true;   /* still in byHolder: a later record of its worker and token can change it */
    public array $calls = [];   /* [t1, op, out] of its later calls: whether a stale holder was told */

    public function __construct(public int $start, public int $end, public string $w, public string $token,
        public int $t0, public $fence)
    {
    }
}

/**
 * The checker's rules over records in time order (see the head of this file), holding only what the rules
 * still need: the holders not yet swept (a holder is swept, in start order, once it is unlocked, so its
 * promise is final), the holder reaching furthest, the fence steps of the last --horizon of time, the
 * fenced writes of the last horizon (judged in the resource's own order once that old), the faults
 * outside the model. A lock call, or a write's record, later than the horizon makes it throw rather than
 * judge wrongly.
 */
final class Checker
{
    public array $stats = ['records' => 0, 'acquisitions' => 0, 'lock_fail' => 0, 'lock_info' => 0,
        'extends_ok' => 0, 'validity_ok' => 0, 'unlocks' => 0, 'losses' => 0, 'renewals' => 0, 'writes' => 0,
        'writes_accepted' => 0, 'writes_unattributed' => 0, 'faults_in_model' => 0, 'faults_outside_model' => 0,
        'faults_outside_model_for_fences' => 0, 'resources' => 0, 'clock_warnings' => 0, 'forks' => 0, 'fault_kinds' => []];
    public array $violations = ['overlaps' => 0, 'fence_accepted_below' => 0, 'fence_not_increasing' => 0,
        'over_limit' => 0, 'fair_starved' => 0, 'fair_bypass' => 0];
    /** rule 4's figures (fair waiting) */
    public array $fair = ['acquisitions' => 0, 'semaphore_acquisitions' => 0, 'timeouts' => 0, 'info' => 0,
        'judged_waits' => 0, 'judged_timeouts' => 0, 'longest_wait_ms' => 0.0, 'longest_wait_queue' => 0,
        'longest_wait_bound_ms' => 0.0, 'longest_judged_wait_ms' => 0.0, 'longest_judged_wait_queue' => 0,
        'longest_judged_wait_bound_ms' => 0.0, 'judged_waits_over_bound' => 0];
    /** rule 4: a fault-free stretch starts 1 s after the last fault; a waiter has drawn its ticket 1 s after its
     * invoke (the first attempt, the subscription and the ticket: three round trips in a fault-free stretch); a
     * hand-over takes at most 250 ms beyond the hold (a waiter not woken attempts within 250 ms); a dead waiter
     * costs at most one heartbeat period, 1 s (docs/design/fair.md) */
    public const FAIR_CALM_NS = 1_000_000_000, FAIR_ARRIVED_NS = 1_000_000_000, FAIR_HANDOVER_NS = 250_000_000,
        FAIR_HEARTBEAT_NS = 1_000_000_000;
    public array $outsideModel = ['overlaps' => 0, 'fence_not_increasing' => 0, 'signalled' => 0, 'not_signalled' => 0,
        'no_later_call' => 0, 'clock_warned' => 0];
    public array $examples = [];
    /** peak of holders waiting to be swept, fence steps and writes buffered: what the stream kept */
    public int $peakKept = 0;

    private array $byHolder = [];   /* "w|token|res" => CheckerHolder, open */
    private array $queue = [];      /* res => list of CheckerHolder in start order, not yet swept */
    private array $qhead = [];      /* res => index of the first not swept */
    private array $reach = [];      /* res => the swept holder reaching furthest */
    private array $steps = [];      /* res => list of [start, fence, t0, w]: fenced holders that raised the top */
    private array $stepsFrom = [];  /* res => times before this were pruned */
    private array $writes = [];     /* res => SplMinHeap of [seq, t, fence, accepted] */
    private array $wtop = [];       /* res => the largest fence accepted so far */
    private array $wlast = [];      /* res => the last seq judged */
    private array $faults = [];     /* [t, scope] out of the model */
    private array $fenceFaults = []; /* [t, scope] in the model for exclusion, not for fences (counters lost) */
    private int $now = PHP_INT_MIN;
    private int $kept = 0;
    private array $limit = [];      /* res => a semaphore's limit (rule 3) */
    private array $active = [];     /* res => swept holders of a semaphore whose promise may still reach later ones */
    private array $fairCalls = [];  /* res => list of fair lock calls [t0, t1, out, w, end, wait_timeout] (rule 4) */
    private array $fairOpen = [];   /* "w|token|res" => index in fairCalls[res] of a fair holder not yet unlocked */
    private array $allFaults = [];  /* [t, scope] of every fault, in the model or not (rule 4's stretches) */

    public function __construct(private int $maxExamples = 5, private int $horizon = 60_000_000_000)
    {
    }

    private function note(string $text): void
    {
        if (count($this->examples) < $this->maxExamples) {
            $this->examples[] = $text;
        }
    }

    /** An out-of-model fault between $from and $to on the resource's scope. */
    private function outside(string $res, int $from, int $to, bool $forFences = false): bool
    {
        foreach ($forFences ? array_merge($this->faults, $this->fenceFaults) : $this->faults as [$t, $scope]) {
            if ($t >= $from && $t <= $to && str_starts_with($res, $scope)) {
                return true;
            }
        }
        return false;
    }

    /** Outside the model a stale holder must at least be told: the first of its calls to complete after the
     * rival acquired (extend, validity, unlock, or onLoss) says it lost the lock (fail, or the loss). */
    private function told(CheckerHolder $stale, int $since): void
    {
        $next = null;
        foreach ($stale->calls as $c) {
            if ($c[0] >= $since && ($next === null || $c[0] < $next[0])) {
                $next = $c;
            }
        }
        $this->outsideModel[$next === null ? 'no_later_call' : ($next[2] === 'fail' || $next[1] === 'loss' ? 'signalled' : 'not_signalled')]++;
        /* and whether a clock-jump warning reached it during its hold, by its next call's return */
        foreach ($stale->calls as $c) {
            if ($c[1] === 'clock-warning' && $c[0] >= $stale->t0 && ($next === null || $c[0] <= $next[0])) {
                $this->outsideModel['clock_warned']++;
                break;
            }
        }
    }

    /** 1. Exclusion: the holders of $res in start order, each against the one reaching furthest so far; a
     * holder is judged once its promise is final (unlocked), or all at the end. */
    private function sweep(string $res, bool $all = false): void
    {
        $q = &$this->queue[$res];
        $i = $this->qhead[$res];
        $n = count($q);
        $reach = $this->reach[$res] ?? null;
        while ($i < $n && ($all || !$q[$i]->open)) {
            $h = $q[$i];
            $q[$i] = null; /* swept: kept only while it is the one reaching furthest */
            $i++;
            $this->kept--;
            if ($h->end <= $h->start) {
                continue; /* unlocked before it completed, or promised nothing */
            }
            if (($this->limit[$res] ?? 1) > 1) { /* 3. a semaphore: the holders still promised at its start */
                $this->sweepSemaphore($res, $h);
                continue;
            }
            if ($reach !== null && $h->start < $reach->end && ($reach->w !== $h->w || $reach->token !== $h->token)) {
                /* From the first of the two invokes: concurrent acquisitions complete in either order, and
                 * the one that completes second may be the one whose key the fault lost (invoked before
                 * a restart without persistence, its vote from that server taken before it). */
                if ($this->outside($res, min($reach->t0, $h->t0), $h->start)) {
                    $this->outsideModel['overlaps']++;
                    $this->told($reach, $h->start);
                } else {
                    $this->violations['overlaps']++;
                    $this->note(sprintf('overlap on %s: %s (token %s) acquired %.3f ms before %s (token %s) stopped being promised',
                        $res, $h->w, substr($h->token, 0, 12), ($reach->end - $h->start) / 1e6, $reach->w, substr($reach->token, 0, 12)));
                }
            }
            if ($reach === null || $h->end > $reach->end) {
                $reach = $h;
            }
        }
        $this->reach[$res] = $reach;
        if ($i === $n) {
            $q = [];
            $i = 0;
        } elseif ($i > 1024 && $i * 2 > $n) {
            $q = array_slice($q, $i);
            $i = 0;
        }
        $this->qhead[$res] = $i;
        unset($q);
    }

    /** 3. A semaphore's holder, in start order, against those swept before it whose promise reaches its start. */
    private function sweepSemaphore(string $res, CheckerHolder $h): void
    {
        $active = array_values(array_filter($this->active[$res] ?? [],
            fn (CheckerHolder $a) => $a->end > $h->start && ($a->w !== $h->w || $a->token !== $h->token)));
        if (count($active) >= $this->limit[$res]) {
            $from = min(array_map(fn (CheckerHolder $a) => $a->t0, array_merge($active, [$h])));
            if ($this->outside($res, $from, $h->start)) {
                $this->outsideModel['overlaps']++;
            } else {
                $this->violations['over_limit']++;
                $this->note(sprintf('semaphore %s (limit %d): %s acquired while %d holders were promised it',
                    $res, $this->limit[$res], $h->w, count($active)));
            }
        }
        $active[] = $h;
        $this->active[$res] = $active;
    }

    /** 4. Fair waiting, once every record was read: starvation and bypass in fault-free stretches. */
    private function judgeFair(): void
    {
        foreach ($this->fairCalls as $res => $calls) {
            $res = (string) $res;
            $limit = $this->limit[$res] ?? 1;
            usort($calls, fn ($a, $b) => $a[0] <=> $b[0]); /* by invoke */
            $span = 0; /* the longest a call stayed in the queue or held: who can be ahead of a later invoke */
            foreach ($calls as $c) {
                $span = max($span, ($c[4] ?? $c[1] ?? $this->now) - $c[0]);
            }
            $n = count($calls);
            $from = 0;
            foreach ($calls as $i => [$t0, $t1, $out, $w, , $waitTimeout]) {
                if ($out === 'info' || $t1 === null) {
                    continue;
                }
                while ($calls[$from][0] < $t0 - $span) {
                    $from++;
                }
                /* the fair calls waiting or holding at its invoke (ahead of it, or arrived with it), the longest
                 * hold during its wait, and a later arrival served first */
                $ahead = $hold = 0;
                $bypass = null;
                for ($j = $from; $j < $n && $calls[$j][0] < $t1; $j++) {
                    [$c0, $c1, $cout, $cw, $cend] = $calls[$j];
                    if ($cw === $w) {
                        continue;
                    }
                    if ($c0 < $t0 && ($cend ?? $c1 ?? PHP_INT_MAX) > $t0) {
                        $ahead++;
                    }
                    if ($cout === 'ok' && $cend !== null && $c1 < $t1 && $cend > $t0) {
                        $hold = max($hold, $cend - $c1);
                    }
                    if ($bypass === null && $cout === 'ok' && $c0 >= $t0 + self::FAIR_ARRIVED_NS && $c1 !== null && $c1 < $t1) {
                        $bypass = $calls[$j];
                    }
                }
                $bound = (int) ceil($ahead / $limit) * ($hold + self::FAIR_HANDOVER_NS) + self::FAIR_HEARTBEAT_NS;
                $wait = $t1 - $t0;
                $calm = !$this->faultBetween($res, $t0 - self::FAIR_CALM_NS, $t1);
                if ($out === 'ok') {
                    if ($wait / 1e6 > $this->fair['longest_wait_ms']) {
                        $this->fair['longest_wait_ms'] = round($wait / 1e6, 1);
                        $this->fair['longest_wait_queue'] = $ahead;
                        $this->fair['longest_wait_bound_ms'] = round($bound / 1e6, 1);
                    }
                    if ($calm && $wait / 1e6 > $this->fair['longest_judged_wait_ms']) {
                        $this->fair['longest_judged_wait_ms'] = round($wait / 1e6, 1);
                        $this->fair['longest_judged_wait_queue'] = $ahead;
                        $this->fair['longest_judged_wait_bound_ms'] = round($bound / 1e6, 1);
                    }
                }
                if (!$calm) {
                    continue;
                }
                $this->fair['judged_waits']++;
                if ($out === 'ok' && $wait > $bound) {
                    $this->fair['judged_waits_over_bound']++;
                }
                if ($out === 'fail') {
                    $this->fair['judged_timeouts']++;
                    $timeout = (int) ($waitTimeout * 1e6);
                    if ($wait < $timeout - 50_000_000 || $bound < $timeout) {
                        $this->violations['fair_starved']++;
                        $this->note(sprintf('fair waiter starved on %s: %s gave up after %.1f ms (waitTimeout %d ms) with %d ahead at its invoke (bound %.1f ms), no fault',
                            $res, $w, $wait / 1e6, $waitTimeout, $ahead, $bound / 1e6));
                    }
                }
                if ($limit === 1 && $bypass !== null) { /* a semaphore admits its first F live waiters together */
                    $this->violations['fair_bypass']++;
                    $this->note(sprintf('fair bypass on %s: %s, invoked %.1f ms after %s, acquired %.1f ms before it completed, no fault',
                        $res, $bypass[3], ($bypass[0] - $t0) / 1e6, $w, ($t1 - $bypass[1]) / 1e6));
                }
            }
        }
    }

    /** A fault of any kind on the resource's scope between $from and $to (rule 4). */
    private function faultBetween(string $res, int $from, int $to): bool
    {
        foreach ($this->allFaults as [$t, $scope]) {
            if ($t >= $from && $t <= $to && str_starts_with($res, $scope)) {
                return true;
            }
        }
        return false;
    }

    /** 2b. Fences of locks in real-time order: a lock invoked after another completed has a larger fence.
     * Judged as the lock completes: every lock completed before its invoke has been seen. */
    private function fenceOrder(string $res, CheckerHolder $h): void
    {
        $steps = &$this->steps[$res];
        $steps ??= [];
        if ($h->t0 < ($this->stepsFrom[$res] ?? PHP_INT_MIN)) {
            throw new RuntimeException(sprintf('a lock call on %s took longer than the streaming horizon (%d s): run with a larger --horizon or --in-memory',
                $res, intdiv($this->horizon, 1_000_000_000)));
        }
        /* the last step completed before its invoke: the largest fence (the first to reach it) by then */
        $lo = 0;
        $hi = count($steps) - 1;
        $top = null;
        while ($lo <= $hi) {
            $mid = ($lo + $hi) >> 1;
            if ($steps[$mid][0] < $h->t0) {
                $top = $steps[$mid];
                $lo = $mid + 1;
            } else {
                $hi = $mid - 1;
            }
        }
        if ($top !== null && $h->fence <= $top[1]) {
            if ($this->outside($res, $top[2], $h->t0, true)) {
                $this->outsideModel['fence_not_increasing']++;
            } else {
                $this->violations['fence_not_increasing']++;
                $this->note(sprintf('fence on %s: %s took fence %d after %s had completed with fence %d',
                    $res, $h->w, $h->fence, $top[3], $top[1]));
            }
        }
        $last = $steps ? $steps[count($steps) - 1] : null;
        if ($last === null || $h->fence > $last[1]) {
            $steps[] = [$h->start, $h->fence, $h->t0, $h->w];
            $this->kept++;
        }
        unset($steps);
        $this->pruneSteps($res);
    }

    /** Keep the steps a lock invoked within the horizon can need: the last one before it, and later. */
    private function pruneSteps(string $res, bool $now = false): void
    {
        $steps = &$this->steps[$res];
        $cut = $this->now - $this->horizon;
        $drop = 0;
        while ($drop + 1 < count($steps) && $steps[$drop + 1][0] < $cut) {
            $drop++;
        }
        if ($drop > 64 || ($drop > 0 && ($now || $drop * 2 >= count($steps)))) {
            $steps = array_slice($steps, $drop);
            $this->kept -= $drop;
            $this->stepsFrom[$res] = $cut;
        }
        unset($steps);
    }

    /** 2a. The fenced resource in its own order (seq): writes are judged once older than the horizon. */
    private function judgeWrites(string $res, bool $all = false): void
    {
        $heap = $this->writes[$res];
        $cut = $this->now - $this->horizon;
        while (!$heap->isEmpty() && ($all || $heap->top()[1] < $cut)) {
            [$seq, , $fence, $accepted] = $heap->extract();
            $this->kept--;
            $this->wlast[$res] = $seq;
            if (!$accepted) {
                continue;
            }
            $top = $this->wtop[$res] ?? null;
            if ($top !== null && $fence < $top) {
                $this->violations['fence_accepted_below']++;
                $this->note(sprintf('fenced resource %s accepted fence %d (write %d) after accepting %d', $res, $fence, $seq, $top));
            }
            $this->wtop[$res] = max($top ?? $fence, $fence);
        }
    }

    /** One record; records come in time order (completion; invoke if never completed; t for a fault). */
    public function add(array $rec): void
    {
        $this->stats['records']++;
        $this->now = max($this->now, (int) ($rec['t1'] ?? $rec['t0'] ?? $rec['t'] ?? 0));
        $op = $rec['op'];
        $out = $rec['out'] ?? 'ok';
        $res = $rec['res'] ?? null;
        $key = ($rec['w'] ?? '') . '|' . ($rec['token'] ?? '') . '|' . $res;
        $h = $this->byHolder[$key] ?? null;
        switch ($op) {
            case 'fault':
                $kind = (string) ($rec['kind'] ?? '?');
                $this->stats['fault_kinds'][$kind] = ($this->stats['fault_kinds'][$kind] ?? 0) + 1;
                $this->allFaults[] = [(int) $rec['t'], (string) ($rec['scope'] ?? '')];
                if (($rec['in_model'] ?? true) === false) {
                    $this->faults[] = [(int) $rec['t'], (string) ($rec['scope'] ?? '')];
                    $this->stats['faults_outside_model']++;
                } else {
                    $this->stats['faults_in_model']++;
                    if (($rec['fences_in_model'] ?? true) === false) {
                        /* in the model for exclusion (a delayed restart: keys expire), not for fences (the
                         * counters were lost: fences need persistence) */
                        $this->fenceFaults[] = [(int) $rec['t'], (string) ($rec['scope'] ?? '')];
                        $this->stats['faults_outside_model_for_fences']++;
                    }
                }
                break;
            case 'lock':
                if (isset($rec['limit'])) {
                    $this->limit[$res] = (int) $rec['limit'];
                }
                if (!empty($rec['fair'])) { /* 4. */
                    $this->fairCalls[$res][] = [(int) $rec['t0'], isset($rec['t1']) ? (int) $rec['t1'] : null, $out,
                        (string) ($rec['w'] ?? ''), null, (int) ($rec['wait_timeout'] ?? 0)];
                    if ($out === 'ok') {
                        $this->fair[isset($rec['limit']) ? 'semaphore_acquisitions' : 'acquisitions']++;
                        $this->fairOpen[$key] = count($this->fairCalls[$res]) - 1;
                    } else {
                        $this->fair[$out === 'fail' ? 'timeouts' : 'info']++;
                    }
                }
                if ($out === 'ok' && ($rec['t1'] ?? null) !== null && isset($rec['validity'])) {
                    $t1 = (int) $rec['t1'];
                    $new = new CheckerHolder($t1, $t1 + (int) round($rec['validity'] * 1e6), (string) $rec['w'],
                        (string) ($rec['token'] ?? ''), (int) $rec['t0'], $rec['fence'] ?? null);
                    if (!isset($this->queue[$res])) {
                        $this->queue[$res] = [];
                        $this->qhead[$res] = 0;
                        $this->stats['resources']++;
                    }
                    $this->queue[$res][] = $new;
                    $this->kept++;
                    if ($h !== null) {
                        $h->open = false; /* replaced: nothing can reach it any more */
                    }
                    $this->byHolder[$key] = $new;
                    $this->stats['acquisitions']++;
                    if ($new->fence !== null) {
                        $this->fenceOrder($res, $new);
                    }
                } elseif ($out === 'fail') {
                    $this->stats['lock_fail']++;
                } else {
                    $this->stats['lock_info']++; /* possibly acquired */
                }
                break;
            case 'extend':
            case 'validity':
                if ($h !== null && ($rec['t1'] ?? null) !== null) {
                    $h->calls[] = [(int) $rec['t1'], $op, $out];
                }
                if ($out !== 'ok' || $h === null || !isset($rec['validity'])) {
                    break; /* a refused or indeterminate promise promises nothing */
                }
                $from = $op === 'extend' ? (int) $rec['t1'] : (int) $rec['t0'];
                $h->end = max($h->end, $from + (int) round($rec['validity'] * 1e6));
                $this->stats[$op === 'extend' ? 'extends_ok' : 'validity_ok']++;
                break;
            case 'unlock':
                $this->stats['unlocks']++;
                if (isset($this->fairOpen[$key])) { /* 4. the fair hold ends at the unlock's invoke */
                    $c = &$this->fairCalls[$res][$this->fairOpen[$key]];
                    $c[4] = (int) $rec['t0'];
                    unset($c, $this->fairOpen[$key]);
                }
                if ($h !== null) {
                    $h->end = min($h->end, (int) $rec['t0']);
                    if (($rec['t1'] ?? null) !== null) {
                        $h->calls[] = [(int) $rec['t1'], 'unlock', $out];
                    }
                    $h->open = false;
                    unset($this->byHolder[$key]); /* later promises for this token belong to nobody */
                    $this->sweep((string) $res);
                }
                break;
            case 'unlock-begin':
                /* an unlock's invoke, written before the call by a worker that may be SIGKILLed inside it: the use
                 * ends here as at the unlock (whose record then may never come) */
                if ($h !== null) {
                    $h->end = min($h->end, (int) $rec['t0']);
                }
                if (isset($this->fairOpen[$key])) {
                    $this->fairCalls[$res][$this->fairOpen[$key]][4] = (int) $rec['t0'];
                    unset($this->fairOpen[$key]);
                }
                break;
            case 'loss':
                $this->stats['losses']++;
                if ($h !== null) {
                    $h->calls[] = [(int) $rec['t1'], 'loss', 'fail'];
                }
                break;
            case 'renewals':
                $this->stats['renewals'] += (int) ($rec['renewals'] ?? 0);
                break;
            case 'clock-warning':
                /* the worker's object saw a server's clock jump: a signal to every lock it holds */
                $this->stats['clock_warnings']++;
                foreach ($this->byHolder as $k => $holder) {
                    if (str_starts_with($k, ($rec['w'] ?? '') . '|')) {
                        $holder->calls[] = [(int) $rec['t1'], 'clock-warning', 'fail'];
                    }
                }
                break;
            case 'write':
                $this->stats['writes']++;
                if (!empty($rec['accepted'])) {
                    $this->stats['writes_accepted']++;
                }
                if ($h === null) {
                    $this->stats['writes_unattributed']++;
                }
                $seq = (int) $rec['seq'];
                if (isset($this->wlast[$res]) && $seq < $this->wlast[$res]) {
                    throw new RuntimeException(sprintf('a write on %s (seq %d) recorded later than the streaming horizon (%d s): run with a larger --horizon or --in-memory',
                        $res, $seq, intdiv($this->horizon, 1_000_000_000)));
                }
                $this->writes[$res] ??= new SplMinHeap();
                $this->writes[$res]->insert([$seq, $this->now, $rec['fence'], !empty($rec['accepted'])]);
                $this->kept++;
                $this->judgeWrites((string) $res);
                break;
            case 'fork':
                /* a child forked inside run()'s $fn, exited: its release must not touch the parent's keys, which
                 * rule 1 judges (a rival acquiring inside the parent's promise is an overlap) */
                $this->stats['forks']++;
                break;
            case 'run':
                break;
            default:
                throw new RuntimeException("unknown op '$op'");
        }
        if ($this->stats['records'] % 8192 === 0) {
            /* resources gone quiet: their old fence steps and writes are not kept either */
            foreach (array_keys($this->steps) as $r) {
                $this->pruneSteps((string) $r, true);
            }
            foreach (array_keys($this->writes) as $r) {
                $this->judgeWrites((string) $r);
            }
        }
        if ($this->kept > $this->peakKept) {
            $this->peakKept = $this->kept;
        }
    }

    /** The verdict, once every record was added. */
    public function finish(): array
    {
        foreach (array_keys($this->queue) as $res) {
            $this->sweep((string) $res, true);
        }
        foreach (array_keys($this->writes) as $res) {
            $this->judgeWrites((string) $res, true);
        }
        $this->judgeFair();
        $total = array_sum($this->violations);
        return ['ok' => $total === 0, 'violations' => $this->violations, 'violations_total' => $total,
            'outside_model' => $this->outsideModel, 'stats' => $this->stats, 'examples' => $this->examples]
            + ($this->fairCalls ? ['fair' => $this->fair] : []);
    }
}

/** @param iterable<array> $records in any order (an array: sorted here, stably) or from checker_stream()
 * (in time order) @return array the verdict */
function checker_check(iterable $records, int $maxExamples = 5, int $horizonNs = 60_000_000_000): array
{
    if (is_array($records)) {
        /* Records in time order of completion (invoke for those never completed): a holder's later calls
         * follow its lock. usort is stable: records of one worker keep their order on equal times. */
        usort($records, fn ($a, $b) => (($a['t1'] ?? $a['t0'] ?? $a['t'] ?? 0) <=> ($b['t1'] ?? $b['t0'] ?? $b['t'] ?? 0)));
    }
    $checker = new Checker($maxExamples, $horizonNs);
    foreach ($records as $rec) {
        $checker->add($rec);
    }
    return $checker->finish();
}

if (realpath($_SERVER['SCRIPT_FILENAME'] ?? '') === __FILE__) {
    $args = array_slice($argv, 1);
    $json = in_array('--json', $args, true);
    $quiet = in_array('--quiet', $args, true);
    $inMemory = in_array('--in-memory', $args, true);
    $horizon = 60;
    foreach ($args as $a) {
        if (str_starts_with($a, '--horizon=')) {
            $horizon = (int) substr($a, 10);
        }
    }
    $paths = array_values(array_filter($args, fn ($a) => !str_starts_with($a, '--')));
    if (!$paths || $horizon < 1) {
        fwrite(STDERR, "usage: php verify/chaos/checker.php [--json] [--quiet] [--in-memory] [--horizon=S] FILE|DIR...\n");
        exit(2);
    }
    if ($inMemory) {
        ini_set('memory_limit', '-1');
    }
    try {
        $verdict = checker_check($inMemory ? checker_read($paths) : checker_stream($paths), 5, $horizon * 1_000_000_000);
    } catch (RuntimeException $e) {
        fwrite(STDERR, 'checker: ' . $e->getMessage() . "\n");
        exit(2);
    }
    if ($verdict['stats']['records'] === 0) {
        fwrite(STDERR, "checker: no history records in " . implode(' ', $paths) . "\n");
        exit(2);
    }
    if ($json) {
        echo json_encode($verdict, JSON_PRETTY_PRINT), "\n";
    } elseif (!$quiet) {
        $s = $verdict['stats'];
        printf("checker: %d records, %d acquisitions (%d refused, %d indeterminate) on %d resources, %d extends, %d validity, %d writes (%d accepted)\n",
            $s['records'], $s['acquisitions'], $s['lock_fail'], $s['lock_info'], $s['resources'], $s['extends_ok'],
            $s['validity_ok'], $s['writes'], $s['writes_accepted']);
        foreach ($verdict['examples'] as $e) {
            echo "  $e\n";
        }
    }
    $o = $verdict['outside_model'];
    if ($o['overlaps'] > 0 && !$quiet) {
        printf("outside the model: %d overlaps; the stale holder's next call said it lost the lock in %d, did not in %d, no later call in %d; a clock-jump warning reached it by then in %d\n",
            $o['overlaps'], $o['signalled'], $o['not_signalled'], $o['no_later_call'], $o['clock_warned']);
    }
    if (isset($verdict['fair']) && !$quiet && !$json) {
        $f = $verdict['fair'];
        printf("fair: %d acquisitions, %d of semaphores, %d timeouts; %d waits judged (fault-free), %d timeouts among them; longest wait %.1f ms (%d ahead, bound %.1f ms), judged %.1f ms (%d ahead, bound %.1f ms), %d judged waits over their bound\n",
            $f['acquisitions'], $f['semaphore_acquisitions'], $f['timeouts'], $f['judged_waits'], $f['judged_timeouts'],
            $f['longest_wait_ms'], $f['longest_wait_queue'], $f['longest_wait_bound_ms'], $f['longest_judged_wait_ms'],
            $f['longest_judged_wait_queue'], $f['longest_judged_wait_bound_ms'], $f['judged_waits_over_bound']);
    }
    $v = $verdict['violations'];
    printf("CHECKER: %s (overlaps %d, fence accepted below %d, fence not increasing %d, over a semaphore's limit %d, fair starved %d, fair bypass %d; outside the model: overlaps %d, fences %d)\n",
        $verdict['ok'] ? 'ok' : 'VIOLATION', $v['overlaps'], $v['fence_accepted_below'], $v['fence_not_increasing'],
        $v['over_limit'], $v['fair_starved'], $v['fair_bypass'], $verdict['outside_model']['overlaps'],
        $verdict['outside_model']['fence_not_increasing']);
    exit($verdict['ok'] ? 0 : 1);
}
