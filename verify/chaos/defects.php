<?php
/* The twenty defects of issue 32 ("Where features meet"), re-introduced one at a time against the checker
 * (issue 33: "the checker detects ... the twenty defects re-introduced one at a time").
 *
 * Each defect was fixed with a rule that a record of verify/mutations/list breaks again: 'mutation' names the
 * record that re-introduces it (the fix's own guard, planted alone), 'chaos' the options of verify/chaos/run.php
 * whose run would exercise it (verify/chaos/planted.php adds --duration, --seed, --port-base, --history and the
 * mutant's --extension; without a --preset here it runs --preset=short --runs=delayed). A defect the checker
 * cannot observe as a violation of the lock's guarantee (exclusion, fences), or one whose trigger the runner
 * never makes, has no 'chaos' and says why in 'out'.
 *
 *   bash verify/chaos/replant.sh N...      (php verify/chaos/planted.php defect-N ...)
 * Figures: docs/evidence/verification.md#the-twenty-defects-of-issue-32-re-introduced */

declare(strict_types=1);

const DEFECTS = [
    1 => ['what' => "a child forked inside run()'s \$fn releases its parent's lock when it exits",
        'mutation' => 'release-by-other-process', 'chaos' => ['--fork-in-run', '--sleep-us=20000']],
    2 => ['what' => 'self-healing waits for no late member (a restarted member answers after the quorum)',
        'mutation' => 'heal-awaits-no-lost-member',
        /* autoExtend holds of 30 x 100 ms (ttl 300 ms) through kills restarted empty after ttl + 300 ms: each
         * restart loses the holders' keys there, which only healing writes back */
        'chaos' => ['--preset=extend', '--hold-slices=30']],
    3 => ['what' => 'extra connection sets never closed or capped (coroutines)', 'mutation' => 'sets-unbounded',
        'out' => 'descriptors and memory, not the guarantee; and the runner has no coroutine workers'],
    4 => ['what' => '__construct() run again on a live object', 'mutation' => 'second-construct-accepted',
        'out' => 'the runner never calls the constructor twice (its overlap needs a coroutine suspended in lock() '
            . 'while another re-constructs: tests/coroutines/932, eventloop/958)'],
    5 => ['what' => "an unlock() overtakes its own lock's late write (coroutines)", 'mutation' => 'release-on-any-set',
        'out' => 'liveness: the key stays its ttl after unlock() said true; a holder that stopped using the lock '
            . 'overlaps nobody (and the runner has no coroutine workers)'],
    6 => ['what' => "one coroutine's fatal error keeps the other coroutines' run() locks", 'mutation' => 'abandoned-run-kept',
        'out' => 'liveness: the locks stay their ttl; no two holders overlap'],
    7 => ['what' => 'autoExtend renews one lock per round trip per object', 'mutation' => 'batch-verdicts-shared',
        'out' => "liveness: leases lost and reported by onLoss; the runner's workers hold one lease per object, "
            . 'so the batch (and its verdict record) is never reached'],
    8 => ['what' => 'one NOPERM vote switches scripts off for good', 'mutation' => 'noperm-minority-learnt',
        'out' => 'liveness (unlock() false, fenced lock() throws), and the runner revokes no scripts (no ACL SETUSER)'],
    9 => ['what' => 'a script-free holder shortens a longer extension', 'mutation' => 'script-free-extend-shortens',
        'out' => 'a safety fault, but its trigger is two holders of one lock array, one scripted and one script-free (SET IFEQ: Redis 8.4+, the runner has 7.0): '
            . "the runner's workers each hold their own lock with scripts (tests/holders/568 catches it)"],
    10 => ['what' => "'scripts' => false still sends Lua for held fenced, shared, semaphore arrays",
        'mutation' => 'script-free-held-kinds-by-script',
        'out' => 'a refused call (validity() false) under an ACL without @scripting: liveness, and no ACL in the runner'],
    11 => ['what' => 'inspect() counts keys, not holders', 'mutation' => 'inspect-keys-not-tokens',
        'out' => 'inspect() is a read that grants nothing: no history records it as a holder'],
    12 => ['what' => 'unlock() of several resources true after another client took part of it',
        'mutation' => 'multi-unlock-any-key',
        'out' => "unlock()'s answer: the checker ends a holder's use at its unlock's invoke whatever it returns"],
    13 => ['what' => 'validity() as a read-write EVAL (a master with writes paused cannot answer)',
        'mutation' => 'validity-without-no-writes', 'out' => 'liveness: validity() false or slow, never over-promising'],
    14 => ['what' => 'the eviction warning missing for a late server', 'mutation' => 'learning-not-awaited',
        'out' => 'a warning, not a grant; the runner configures no eviction policy'],
    15 => ['what' => "a member's sentinels asked in turn (the sum of their timeouts)", 'mutation' => 'sentinels-asked-in-turn',
        'out' => 'latency of a call, not the guarantee'],
    16 => ['what' => 'getLastErrors() after an observer that yields describes another call', 'mutation' => 'last-errors-of-the-object',
        'out' => 'diagnostics, not a grant'],
    17 => ['what' => 'a ttl Redis cannot accept is not a ValueError', 'mutation' => 'ttl-max-unchecked',
        'out' => 'an argument check: the call returns false or a ValueError, nothing is granted'],
    18 => ['what' => "'every call bounded' has holes (retryDelay, server timeout)", 'mutation' => 'retry-delay-unbounded',
        'out' => 'an argument bound: a call that never returns grants nothing (liveness)'],
    19 => ['what' => 'inspect() with a long name and a large limit grows the process', 'mutation' => 'slot-keys-unbounded',
        'out' => 'memory, not the guarantee'],
    20 => ['what' => 'demo.sh redirected to a file loses lines', 'mutation' => 'demo-workers-given-stderr',
        'out' => "the demo's log, not the extension"],
];
