<?php
/* The checker (issue 33): reads the histories of any chaos run (verify/chaos/history.php: JSON lines) and
 * checks the lock's guarantee as one property. See docs/design/verification.md.
 *
 *   php verify/chaos/checker.php [--json] [--quiet] FILE|DIR...    (a DIR: every *.jsonl in it)
 *   exit 0: no violation; 1: a violation; 2: bad input
 *
 * Per resource:
 *  1. Exclusion. A holder is a lock call that completed ok. Its promised interval runs from that call's
 *     completion to completion + the validity it returned, stretched by every later promise to the same
 *     holder (worker and token): an extend() ok (its completion + its validity), a validity() ok (its
 *     invoke + the value: the earliest it can have measured from). It ends early at the holder's unlock
 *     (the unlock's invoke: the holder stopped using it there). Two holders' intervals must not overlap.
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
 *  same way, not overlaps. */

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

/** @param list<array> $records @return array the verdict */
function checker_check(array $records, int $maxExamples = 5): array
{
    $holders = [];      /* res => list of [start, end, w, token, t0, fence] */
    $byHolder = [];     /* "w|token|res" => index into $holders[res] */
    $faults = [];       /* list of [t, scope] out of the model */
    $fenceFaults = [];  /* list of [t, scope] in the model for exclusion, not for fences (counters lost) */
    $writes = [];       /* res => list of [seq, fence, accepted, token] */
    $stats = ['records' => count($records), 'acquisitions' => 0, 'lock_fail' => 0, 'lock_info' => 0,
        'extends_ok' => 0, 'validity_ok' => 0, 'unlocks' => 0, 'losses' => 0, 'renewals' => 0, 'writes' => 0,
        'writes_accepted' => 0, 'writes_unattributed' => 0, 'faults_in_model' => 0, 'faults_outside_model' => 0, 'faults_outside_model_for_fences' => 0,
        'resources' => 0, 'clock_warnings' => 0];
    /* Records in time order of completion (invoke for those never completed): a holder's later calls
     * follow its lock. usort is stable: records of one worker keep their order on equal times. */
    usort($records, fn ($a, $b) => (($a['t1'] ?? $a['t0'] ?? $a['t'] ?? 0) <=> ($b['t1'] ?? $b['t0'] ?? $b['t'] ?? 0)));
    $pending = [];      /* unlocks and promises seen before their holder (never, given the sort; kept safe) */
    foreach ($records as $rec) {
        $op = $rec['op'];
        $out = $rec['out'] ?? 'ok';
        $res = $rec['res'] ?? null;
        $key = ($rec['w'] ?? '') . '|' . ($rec['token'] ?? '') . '|' . $res;
        switch ($op) {
            case 'fault':
                if (($rec['in_model'] ?? true) === false) {
                    $faults[] = [(int) $rec['t'], (string) ($rec['scope'] ?? '')];
                    $stats['faults_outside_model']++;
                } else {
                    $stats['faults_in_model']++;
                    if (($rec['fences_in_model'] ?? true) === false) {
                        /* in the model for exclusion (a delayed restart: keys expire), not for fences (the
                         * counters were lost: fences need persistence) */
                        $fenceFaults[] = [(int) $rec['t'], (string) ($rec['scope'] ?? '')];
                        $stats['faults_outside_model_for_fences']++;
                    }
                }
                break;
            case 'lock':
                if ($out === 'ok' && ($rec['t1'] ?? null) !== null && isset($rec['validity'])) {
                    $t1 = (int) $rec['t1'];
                    $holders[$res][] = [$t1, $t1 + (int) round($rec['validity'] * 1e6), (string) $rec['w'],
                        (string) ($rec['token'] ?? ''), (int) $rec['t0'], $rec['fence'] ?? null, []];
                    $byHolder[$key] = count($holders[$res]) - 1;
                    $stats['acquisitions']++;
                } elseif ($out === 'fail') {
                    $stats['lock_fail']++;
                } else {
                    $stats['lock_info']++; /* possibly acquired */
                }
                break;
            case 'extend':
            case 'validity':
                if (isset($byHolder[$key]) && ($rec['t1'] ?? null) !== null) {
                    $holders[$res][$byHolder[$key]][6][] = [(int) $rec['t1'], $op, $out];
                }
                if ($out !== 'ok' || !isset($byHolder[$key]) || !isset($rec['validity'])) {
                    break; /* a refused or indeterminate promise promises nothing */
                }
                $from = $op === 'extend' ? (int) $rec['t1'] : (int) $rec['t0'];
                $h = &$holders[$res][$byHolder[$key]];
                $h[1] = max($h[1], $from + (int) round($rec['validity'] * 1e6));
                unset($h);
                $stats[$op === 'extend' ? 'extends_ok' : 'validity_ok']++;
                break;
            case 'unlock':
                $stats['unlocks']++;
                if (isset($byHolder[$key])) {
                    $h = &$holders[$res][$byHolder[$key]];
                    $h[1] = min($h[1], (int) $rec['t0']);
                    if (($rec['t1'] ?? null) !== null) {
                        $h[6][] = [(int) $rec['t1'], 'unlock', $out];
                    }
                    unset($h);
                    unset($byHolder[$key]); /* later promises for this token belong to nobody */
                }
                break;
            case 'loss':
                $stats['losses']++;
                if (isset($byHolder[$key])) {
                    $holders[$res][$byHolder[$key]][6][] = [(int) $rec['t1'], 'loss', 'fail'];
                }
                break;
            case 'renewals':
                $stats['renewals'] += (int) ($rec['renewals'] ?? 0);
                break;
            case 'clock-warning':
                /* the worker's object saw a server's clock jump: a signal to every lock it holds */
                $stats['clock_warnings']++;
                foreach ($byHolder as $k => $index) {
                    if (str_starts_with($k, ($rec['w'] ?? '') . '|')) {
                        $holders[explode('|', $k, 3)[2]][$index][6][] = [(int) $rec['t1'], 'clock-warning', 'fail'];
                    }
                }
                break;
            case 'write':
                $stats['writes']++;
                if (!empty($rec['accepted'])) {
                    $stats['writes_accepted']++;
                }
                if (!isset($byHolder[$key])) {
                    $stats['writes_unattributed']++;
                }
                $writes[$res][] = [(int) $rec['seq'], $rec['fence'], !empty($rec['accepted']), (string) ($rec['token'] ?? '')];
                break;
            case 'run':
                break;
            default:
                throw new RuntimeException("unknown op '$op'");
        }
    }
    $stats['resources'] = count($holders);

    /* An out-of-model fault between the earlier holder's invoke and the later one's start, on its scope. */
    $outside = function (string $res, int $from, int $to, bool $forFences = false) use ($faults, $fenceFaults): bool {
        foreach ($forFences ? array_merge($faults, $fenceFaults) : $faults as [$t, $scope]) {
            if ($t >= $from && $t <= $to && str_starts_with($res, $scope)) {
                return true;
            }
        }
        return false;
    };
    $violations = ['overlaps' => 0, 'fence_accepted_below' => 0, 'fence_not_increasing' => 0];
    $outsideModel = ['overlaps' => 0, 'fence_not_increasing' => 0, 'signalled' => 0, 'not_signalled' => 0,
        'no_later_call' => 0, 'clock_warned' => 0];
    /* Outside the model a stale holder must at least be told: the first of its calls to complete after the
     * rival acquired (extend, validity, unlock, or onLoss) says it lost the lock (fail, or the loss). */
    $told = function (array $stale, int $since) use (&$outsideModel): void {
        $next = null;
        foreach ($stale[6] as $c) {
            if ($c[0] >= $since && ($next === null || $c[0] < $next[0])) {
                $next = $c;
            }
        }
        $outsideModel[$next === null ? 'no_later_call' : ($next[2] === 'fail' || $next[1] === 'loss' ? 'signalled' : 'not_signalled')]++;
        /* and whether a clock-jump warning reached it during its hold, by its next call's return */
        foreach ($stale[6] as $c) {
            if ($c[1] === 'clock-warning' && $c[0] >= $stale[4] && ($next === null || $c[0] <= $next[0])) {
                $outsideModel['clock_warned']++;
                break;
            }
        }
    };
    $examples = [];
    $note = function (string $text) use (&$examples, $maxExamples): void {
        if (count($examples) < $maxExamples) {
            $examples[] = $text;
        }
    };

    foreach ($holders as $res => $list) {
        /* 1. Exclusion: sweep by start, against the holder reaching furthest so far. */
        usort($list, fn ($a, $b) => $a[0] <=> $b[0]);
        $reach = null;
        foreach ($list as $h) {
            if ($h[1] <= $h[0]) {
                continue; /* unlocked before it completed, or promised nothing */
            }
            if ($reach !== null && $h[0] < $reach[1] && ($reach[2] !== $h[2] || $reach[3] !== $h[3])) {
                /* From the first of the two invokes: concurrent acquisitions complete in either order, and
                 * the one that completes second may be the one whose key the fault lost (invoked before
                 * a restart without persistence, its vote from that server taken before it). */
                if ($outside($res, min($reach[4], $h[4]), $h[0])) {
                    $outsideModel['overlaps']++;
                    $told($reach, $h[0]);
                } else {
                    $violations['overlaps']++;
                    $note(sprintf('overlap on %s: %s (token %s) acquired %.3f ms before %s (token %s) stopped being promised',
                        $res, $h[2], substr($h[3], 0, 12), ($reach[1] - $h[0]) / 1e6, $reach[2], substr($reach[3], 0, 12)));
                }
            }
            if ($reach === null || $h[1] > $reach[1]) {
                $reach = $h;
            }
        }
        /* 2b. Fences of locks in real-time order: completed before another was invoked => smaller. */
        $fenced = array_values(array_filter($list, fn ($h) => $h[5] !== null));
        if ($fenced) {
            $byInvoke = $fenced;
            usort($byInvoke, fn ($a, $b) => $a[4] <=> $b[4]);
            $byDone = $fenced;
            usort($byDone, fn ($a, $b) => $a[0] <=> $b[0]);
            $i = 0;
            $top = null; /* the holder with the largest fence among those completed so far */
            foreach ($byInvoke as $h) {
                while ($i < count($byDone) && $byDone[$i][0] < $h[4]) {
                    if ($top === null || $byDone[$i][5] > $top[5]) {
                        $top = $byDone[$i];
                    }
                    $i++;
                }
                if ($top !== null && $h[5] <= $top[5]) {
                    if ($outside($res, $top[4], $h[4], true)) {
                        $outsideModel['fence_not_increasing']++;
                    } else {
                        $violations['fence_not_increasing']++;
                        $note(sprintf('fence on %s: %s took fence %d after %s had completed with fence %d',
                            $res, $h[2], $h[5], $top[2], $top[5]));
                    }
                }
            }
        }
    }
    /* 2a. The fenced resource, in its own order. */
    foreach ($writes as $res => $list) {
        usort($list, fn ($a, $b) => $a[0] <=> $b[0]);
        $top = null;
        foreach ($list as [$seq, $fence, $accepted, $token]) {
            if (!$accepted) {
                continue;
            }
            if ($top !== null && $fence < $top) {
                $violations['fence_accepted_below']++;
                $note(sprintf('fenced resource %s accepted fence %d (write %d) after accepting %d', $res, $fence, $seq, $top));
            }
            $top = max($top ?? $fence, $fence);
        }
    }
    $total = array_sum($violations);
    return ['ok' => $total === 0, 'violations' => $violations, 'violations_total' => $total,
        'outside_model' => $outsideModel, 'stats' => $stats, 'examples' => $examples];
}

if (realpath($_SERVER['SCRIPT_FILENAME'] ?? '') === __FILE__) {
    $args = array_slice($argv, 1);
    $json = in_array('--json', $args, true);
    $quiet = in_array('--quiet', $args, true);
    $paths = array_values(array_filter($args, fn ($a) => !str_starts_with($a, '--')));
    if (!$paths) {
        fwrite(STDERR, "usage: php verify/chaos/checker.php [--json] [--quiet] FILE|DIR...\n");
        exit(2);
    }
    ini_set('memory_limit', '-1');
    try {
        $verdict = checker_check(checker_read($paths));
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
    printf("CHECKER: %s (overlaps %d, fence accepted below %d, fence not increasing %d; outside the model: overlaps %d, fences %d)\n",
        $verdict['ok'] ? 'ok' : 'VIOLATION', $verdict['violations']['overlaps'], $verdict['violations']['fence_accepted_below'],
        $verdict['violations']['fence_not_increasing'], $verdict['outside_model']['overlaps'], $verdict['outside_model']['fence_not_increasing']);
    exit($verdict['ok'] ? 0 : 1);
}
