<?php
/* An explicit-state model of the lock (issue 33, item 5): acquisition (fenced: SET NX + INCR, then the
 * fence write-back), extend/renewal with self-healing, release, the master-changed rule of Sentinel members,
 * fences and a fenced resource. Every reachable state of small instances (3 servers, 2 clients, bounded time
 * and operations) is visited depth-first, each state kept with the smallest depth it was reached at (so the
 * step bound is exact; a counterexample found is not necessarily the shortest).
 * Assumptions and results: verify/chaos/model/README.md.
 *
 *   php verify/chaos/model/redlock_model.php [--quiet] [--run=NAME] [--variant=NAME|correct|all] [--trace]
 *   MODEL_BOUNDS='{"tmax":2,"ext":[1,0]}' overrides fields of the run (JSON), MODEL_DEPTH its bound on steps
 *   php verify/chaos/model/redlock_model.php --run=NAME --variant=NAME --replay=FILE   follows one schedule (action
 *   labels, a prefix each, one a line) and prints its steps and violations: exit 0 when every step was enabled
 *   exit 0: the correct model has no violation, every planted variant has one and every variant of
 *   VARIANT_NONE_IN has none in its run; 1 otherwise.
 */

declare(strict_types=1);

const VARIANTS = [
    'correct'                  => 'the rules as the extension implements them',
    'quorum-off-by-one'        => 'quorum = floor(N/2) instead of floor(N/2) + 1',
    'validity-ignores-elapsed' => 'validity = ttl - drift, not subtracting the time the call took',
    'heal-after-quorum-lost'   => 'an extend re-creates missing keys also when it found no quorum',
    'changed-master-counts'    => "a member whose master changed counts before healing adopted it",
    'fence-first-vote'         => 'the fence is the first yes vote\'s counter, not the largest of the quorum',
    'no-healing'               => 'an extend never writes a missing key back',
    'late-heal-counts'         => 'a yes counts where a heal may have landed after the promise of the extend that sent it',
];

/* Runs: each a set of faults over the same rules. N servers, C clients, TTL and drift D in ticks. A run names
 * what differs from RUN_DEFAULTS. A failover may be limited to one member (failover_member), to the time c0
 * holds (failover_while_held), and leaves the clients of old_address pointed at the old master. old_refuses:
 * the servers run min-replicas-to-write 1, so the old master, its replica promoted, refuses every write
 * (NOREPLICAS: an error, no vote, no heal) until it is demoted (tests/faults/129 shows it on real servers). */
const RUN_DEFAULTS = ['crash' => 0, 'empty_delayed' => 0, 'failover' => 0, 'failover_member' => -1,
    'old_address' => [0, 1], 'failover_while_held' => 0, 'outside' => 0, 'depth' => 99, 'old_refuses' => 0];
const RUNS = [
    'core' => [
        'what' => 'contention, message delays, drift (a key may expire up to D ticks early), extend, release',
        'tmax' => 3, 'acq' => [1, 1], 'ext' => [1, 0],
    ],
    'fences' => [
        'what' => 'three acquisitions (one failing part-way) and their fences, contention, drift',
        'tmax' => 2, 'acq' => [2, 1], 'ext' => [0, 0],
    ],
    'healing' => [
        'what' => 'a crash, then a restart with AOF or without persistence after >= ttl down; renewal heals',
        'tmax' => 4, 'acq' => [1, 1], 'ext' => [2, 0], 'crash' => 1, 'empty_delayed' => 1,
    ],
    'sentinel' => [
        'what' => 'a failover: the master crashes, its replica is promoted; the old master returns (AOF) for clients with its address until demoted',
        'tmax' => 4, 'acq' => [1, 1], 'ext' => [1, 0], 'failover' => 1,
    ],
    /* the healing rule alone, small enough to exhaust: one holder (c1 never acts), one tick, a crash of one
     * member (before the lock: missing from its votes; or while held: its in-flight request lost) and its
     * restart with AOF, two renewals (or an unlock): property 3 judged at the second renewal */
    'heal-small' => [
        'what' => 'one holder, a crash (AOF restart), two renewals: the member that lost the key is healed',
        'tmax' => 1, 'acq' => [1, 0], 'ext' => [2, 0], 'crash' => 1,
        'quick_depth' => 99, /* 31,656 states: exhausted in CI too */
    ],
    /* heal-small with a rival and two ticks: a heal held back past the promise of the extend that sent it, a
     * rival's hold meanwhile, then the renewal behind the heal (README, counterexample 2). Exhausted, but too
     * large for CI's --quick */
    'heal-rival' => [
        'what' => 'heal-small with a rival trying once and two ticks: a heal that lands late',
        'tmax' => 2, 'acq' => [1, 1], 'ext' => [2, 0], 'crash' => 1,
    ],
    /* a failover alone, small enough to exhaust: on s0 only (the servers are symmetric), no time (no key can
     * expire before tick 2; the counterexamples two ticks bring are in the README) */
    'sentinel-small' => [
        'what' => 'a failover at any point against one holder (lock, two renewals or an unlock) and a rival trying once',
        'tmax' => 0, 'acq' => [1, 1], 'ext' => [2, 0], 'failover' => 1, 'failover_member' => 0,
        'quick_depth' => 99, /* 156,288 states: exhausted in CI too */
    ],
    'outside' => [
        'what' => 'outside the model for exclusion: a key gone early on a member (clock jump, eviction)',
        'tmax' => 2, 'acq' => [2, 1], 'ext' => [0, 0], 'outside' => 1,
    ],
];

/* which run shows each planted variant */
const VARIANT_RUN = [
    'quorum-off-by-one'        => 'core',
    'validity-ignores-elapsed' => 'core',
    'fence-first-vote'         => 'fences',
    'heal-after-quorum-lost'   => 'healing',
    'no-healing'               => 'heal-small',
    'late-heal-counts'         => 'heal-rival',
];

/* variants with no counterexample in the run named, which exhausts it: the rule they break guards nothing there
 * (README, "The master-changed rule"; its counterexample needs ticks, where the correct model fails too) */
const VARIANT_NONE_IN = [
    'changed-master-counts'    => 'sentinel-small',
];

const N = 3;
const C = 2;
const TTL = 3;
const D = 1;

final class Model
{
    public int $q;
    public array $cfg;
    public string $variant;

    public function __construct(string $run, string $variant)
    {
        $this->cfg = RUNS[$run] + RUN_DEFAULTS;
        $bounds = getenv('MODEL_BOUNDS');
        if ($bounds) {
            /* to look past a run's bounds without editing it (the counterexamples in the README) */
            $this->cfg = json_decode($bounds, true, 4, JSON_THROW_ON_ERROR) + $this->cfg;
        }
        $this->variant = $variant;
        $this->q = $variant === 'quorum-off-by-one' ? intdiv(N, 2) : intdiv(N, 2) + 1;
    }

    public function init(): array
    {
        $srv = [];
        for ($s = 0; $s < N; $s++) {
            /* inst: [key owner token or '', exp (nominal), counter, epoch]; old: the demoted master in a
             * two-masters window, or null */
            $srv[$s] = ['up' => 1, 'down' => 0, 'cur' => ['', 0, 0, 0], 'old' => null];
        }
        $cl = [];
        for ($c = 0; $c < C; $c++) {
            $cl[$c] = [
                'ph' => 'idle', 'tok' => '', 'n' => 0, 't0' => 0, 'req' => array_fill(0, N, ''),
                'val' => array_fill(0, N, 0), 'ep' => array_fill(0, N, -1), 'first' => -1,
                'fence' => 0, 'fmin' => 0, 'pe' => -1, 'acqAt' => -1,
                'marks' => array_fill(0, N, -1), 'pend' => array_fill(0, N, []), 'conn' => array_fill(0, N, 0),
                'heal' => array_fill(0, N, 0), 'exts' => 0, 'wrote' => 0,
                /* per member, the end of the promise of the extend whose heal went there, until a reply on
                 * the connection shows the heal landed in time (or under a quorum won without it): 0 none */
                'hu' => array_fill(0, N, 0),
            ];
        }
        return [
            't' => 0, 'srv' => $srv, 'cl' => $cl, 'res' => 0, 'maxf' => 0,
            'faults' => ['crash' => 0, 'empty' => 0, 'failover' => 0, 'outside' => 0],
            'out' => 0, 'ctrlost' => 0,
        ];
    }

    /** the instance client $c reaches on member $s: 'cur' or 'old' */
    private static function inst(array $st, int $c, int $s): string
    {
        return ($st['cl'][$c]['conn'][$s] === 1 && $st['srv'][$s]['old'] !== null) ? 'old' : 'cur';
    }

    private static function live(array $i, int $t): bool
    {
        return $i[0] !== '' && $t < $i[1];
    }

    /** @return list<array{0:string,1:array,2:?string}> successors: action, state, violation or null */
    public function next(array $st): array
    {
        $out = [];
        $t = $st['t'];
        $cfg = $this->cfg;

        /* time */
        if ($t < $cfg['tmax']) {
            $n = $st;
            $n['t'] = $t + 1;
            foreach ($n['srv'] as $s => $sv) {
                foreach (['cur', 'old'] as $w) {
                    if ($sv[$w] !== null && $sv[$w][0] !== '' && $sv[$w][1] <= $t + 1) {
                        $n['srv'][$s][$w][0] = '';
                        $n['srv'][$s][$w][1] = 0;
                    }
                }
            }
            for ($c = 0; $c < C; $c++) {
                if ($n['cl'][$c]['pe'] <= $t + 1) {
                    $n['cl'][$c]['pe'] = -1; /* a promise that ended constrains nobody */
                }
            }
            $out[] = ['tick', $n, null];
        }

        foreach ($st['srv'] as $s => $sv) {
            foreach (['cur', 'old'] as $w) {
                $i = $sv[$w];
                if ($i === null || !self::live($i, $t)) {
                    continue;
                }
                /* drift: a server's clock may run fast, the key goes up to D ticks early */
                if ($t >= $i[1] - D) {
                    $n = $st;
                    $n['srv'][$s][$w][0] = '';
                    $n['srv'][$s][$w][1] = 0;
                    $out[] = ["expire-early s$s/$w (drift)", $n, null];
                } elseif ($cfg['outside'] > $st['faults']['outside']) {
                    $n = $st;
                    $n['srv'][$s][$w][0] = '';
                    $n['srv'][$s][$w][1] = 0;
                    $n['faults']['outside']++;
                    $n['out'] = 1;
                    $out[] = ["key-gone s$s/$w (clock jump or eviction: OUTSIDE the model)", $n, null];
                }
            }
            /* crashes and restarts */
            if ($sv['up'] && $sv['old'] === null && $st['faults']['crash'] + $st['faults']['empty'] <
                $cfg['crash'] + $cfg['empty_delayed']) {
                $n = $st;
                $n['srv'][$s]['up'] = 0;
                $n['srv'][$s]['down'] = $t;
                for ($c = 0; $c < C; $c++) {
                    $n['cl'][$c]['pend'][$s] = [];
                    $n['cl'][$c]['heal'][$s] = 0;
                    if ($n['cl'][$c]['req'][$s] === 'w') {
                        $n['cl'][$c]['req'][$s] = 'x';
                    }
                }
                $out[] = ["crash s$s", $n, null];
            }
            if (!$sv['up']) {
                if ($st['faults']['crash'] < $cfg['crash']) {
                    $n = $st;
                    $n['srv'][$s]['up'] = 1;
                    $n['srv'][$s]['down'] = 0;
                    $n['faults']['crash']++;
                    $out[] = ["restart s$s (AOF: keys and counter kept)", $n, null];
                }
                if ($st['faults']['empty'] < $cfg['empty_delayed'] && $t - $sv['down'] >= TTL) {
                    $n = $st;
                    $n['srv'][$s]['up'] = 1;
                    $n['srv'][$s]['down'] = 0;
                    $n['srv'][$s]['cur'] = ['', 0, 0, $sv['cur'][3]];
                    $n['faults']['empty']++;
                    $n['ctrlost'] = 1;
                    $out[] = ["restart s$s empty (no persistence, down >= ttl)", $n, null];
                }
            }
            /* Sentinel: the master fails (crashes), its replica, an exact copy (synchronous replication), is
             * promoted with a new epoch. The old master may come back (AOF: its data as it crashed) and serve
             * clients that still have its address until Sentinel demotes it: the two-masters window. */
            if ($sv['up'] && $sv['old'] === null && $st['faults']['failover'] < $cfg['failover'] &&
                ($cfg['failover_member'] < 0 || $cfg['failover_member'] === $s) &&
                (!$cfg['failover_while_held'] || in_array($st['cl'][0]['ph'], ['hold', 'ext'], true))) {
                $n = $st;
                $n['faults']['failover']++;
                $n['srv'][$s]['old'] = $sv['cur'];
                $n['srv'][$s]['old'][4] = 0;
                $n['srv'][$s]['cur'][3]++;
                foreach ($cfg['old_address'] as $c) { /* the clients still pointed at the old master */
                    $n['cl'][$c]['conn'][$s] = 1;
                }
                for ($c = 0; $c < C; $c++) {
                    $n['cl'][$c]['pend'][$s] = [];
                    $n['cl'][$c]['heal'][$s] = 0;
                    if ($n['cl'][$c]['req'][$s] === 'w') {
                        $n['cl'][$c]['req'][$s] = 'x';
                    }
                }
                $out[] = ["failover s$s: its master crashes, the replica is promoted", $n, null];
            }
            if ($sv['old'] !== null && !$sv['old'][4]) {
                $n = $st;
                $n['srv'][$s]['old'][4] = 1;
                $out[] = ["the old master of s$s restarts (AOF), still a master for clients with its address", $n, null];
            }
            if ($sv['old'] !== null && $sv['old'][4]) {
                $n = $st;
                $n['srv'][$s]['old'] = null;
                for ($c = 0; $c < C; $c++) {
                    if ($n['cl'][$c]['conn'][$s] === 1) {
                        $n['cl'][$c]['conn'][$s] = 0;
                        $n['cl'][$c]['pend'][$s] = [];
                        /* a heal sent to the old master is lost with its data, as with a crash: (3) excuses it */
                        $n['cl'][$c]['heal'][$s] = 0;
                        if ($n['cl'][$c]['req'][$s] === 'w') {
                            $n['cl'][$c]['req'][$s] = 'x';
                        }
                    }
                }
                $out[] = ["Sentinel demotes the old master of s$s", $n, null];
            }
        }

        for ($c = 0; $c < C; $c++) {
            $this->clientSteps($st, $c, $out);
        }
        return $out;
    }

    private function clientSteps(array $st, int $c, array &$out): void
    {
        $cl = $st['cl'][$c];
        $t = $st['t'];
        $cfg = $this->cfg;

        /* fire-and-forget messages (rollbacks, heals), in order per connection */
        foreach ($cl['pend'] as $s => $q) {
            if ($q === [] || !$st['srv'][$s]['up'] || self::inst($st, $c, $s) === 'old' && !$st['srv'][$s]['old'][4]) {
                continue;
            }
            $n = $st;
            $m = array_shift($n['cl'][$c]['pend'][$s]);
            $w = self::inst($st, $c, $s);
            $i = $st['srv'][$s][$w];
            if ($w === 'old' && $cfg['old_refuses']) {
                $n['cl'][$c]['heal'][$s] = 0; /* NOREPLICAS: the heal wrote nothing, (3) asks nothing */
            } elseif ($m[0] === 'rb' && $i[0] === $m[1]) {
                $n['srv'][$s][$w][0] = '';
            } elseif ($m[0] === 'heal' && !self::live($i, $t)) {
                $n['srv'][$s][$w][0] = $m[1];
                $n['srv'][$s][$w][1] = $t + TTL;
            } elseif ($m[0] === 'heal' && $i[0] !== $m[1]) {
                /* SET NX found another client's key (its attempt reached the member first): no heal can be
                 * written there, property 3 has nothing to ask of it */
                $n['cl'][$c]['heal'][$s] = 0;
            }
            $out[] = ["deliver c$c {$m[0]} {$m[1]} to s$s/$w", $n, null];
        }

        /* a call in flight: deliver a request */
        if (in_array($cl['ph'], ['acq1', 'acq2', 'ext', 'rel'], true)) {
            $done = true;
            foreach ($cl['req'] as $s => $r) {
                if ($r !== 'w') {
                    continue;
                }
                $done = false;
                if (!$st['srv'][$s]['up'] || $cl['pend'][$s] !== []) {
                    continue;
                }
                [$n, $v] = $this->deliver($st, $c, $s);
                $act = "deliver c$c {$cl['ph']} to s$s/" . self::inst($st, $c, $s) . " -> " . $n['cl'][$c]['req'][$s];
                if (!in_array('w', $n['cl'][$c]['req'], true)) {
                    [$n, $what, $v2] = $this->complete($n, $c);
                    $act .= "; c$c completes {$cl['ph']}: $what";
                    $v = $v ?? $v2;
                }
                $out[] = [$act, $n, $v];
            }
            if ($done) {
                [$n, $what, $v] = $this->complete($st, $c);
                $out[] = ["c$c completes {$cl['ph']}: $what", $n, $v];
            }
            return;
        }

        if ($cl['ph'] === 'idle' && $cl['n'] < $cfg['acq'][$c]) {
            $n = $st;
            $k = &$n['cl'][$c];
            $k['n']++;
            $k['tok'] = "c$c." . $k['n'];
            $this->invoke($n, $c, 'acq1');
            $k['fmin'] = $st['maxf'];
            $k['first'] = -1;
            $k['marks'] = array_fill(0, N, -1);
            $k['heal'] = array_fill(0, N, 0);
            $k['exts'] = 0;
            $k['wrote'] = 0;
            unset($k);
            $out[] = ["c$c invokes lock (token c$c.{$n['cl'][$c]['n']})", $n, null];
        }
        if ($cl['ph'] === 'hold') {
            if ($cl['exts'] < $cfg['ext'][$c]) {
                $n = $st;
                $n['cl'][$c]['exts']++;
                $this->invoke($n, $c, 'ext');
                $out[] = ["c$c invokes extend", $n, null];
            }
            $n = $st;
            $this->invoke($n, $c, 'rel');
            $n['cl'][$c]['pe'] = -1; /* the holder stops using the lock when it asks to release it */
            $out[] = ["c$c invokes unlock", $n, null];
        }
    }

    private function invoke(array &$n, int $c, string $ph): void
    {
        $k = &$n['cl'][$c];
        $k['ph'] = $ph;
        $k['t0'] = $n['t'];
        for ($s = 0; $s < N; $s++) {
            $k['req'][$s] = $n['srv'][$s]['up'] ? 'w' : 'x';
            $old = $n['srv'][$s]['old'];
            if ($k['conn'][$s] === 1 && ($old === null || !$old[4])) {
                $k['req'][$s] = 'x';      /* the old master is down: the call fails there, asks Sentinel */
                $k['conn'][$s] = 0;
                $k['pend'][$s] = [];
            }
            $k['val'][$s] = 0;
            $k['ep'][$s] = -1;
        }
    }

    /** one request delivered and processed atomically by the server (a script) */
    private function deliver(array $st, int $c, int $s): array
    {
        $n = $st;
        $t = $st['t'];
        $k = &$n['cl'][$c];
        $w = self::inst($st, $c, $s);
        $i = &$n['srv'][$s][$w];
        $mine = self::live($i, $t) && $i[0] === $k['tok'];
        $k['ep'][$s] = $i[3];
        $v = null;
        if ($w === 'old' && $this->cfg['old_refuses']) {
            $k['req'][$s] = $k['ph'] === 'rel' ? 'y' : 'x'; /* NOREPLICAS: no vote (a release has nothing to do) */
            $k['heal'][$s] = 0;
            unset($i, $k);
            return [$n, null];
        }
        switch ($k['ph']) {
            case 'acq1': /* SET NX PX ttl + INCR of the fence counter */
                if (!self::live($i, $t)) {
                    $i[0] = $k['tok'];
                    $i[1] = $t + TTL;
                    $i[2]++;
                    $k['req'][$s] = 'y';
                    $k['val'][$s] = $i[2];
                    if ($k['first'] < 0) {
                        $k['first'] = $s;
                    }
                } else {
                    $k['req'][$s] = 'n';
                }
                break;
            case 'acq2': /* the fence write-back, only where our key still is */
                if ($mine) {
                    $i[2] = max($i[2], $k['fence']);
                    $k['req'][$s] = 'y';
                } else {
                    $k['req'][$s] = 'n';
                }
                break;
            case 'ext':
                if ($mine) {
                    $i[1] = max($i[1], $t + TTL);
                    $k['req'][$s] = 'y';
                } else {
                    $k['req'][$s] = self::live($i, $t) ? 'o' : 'n';
                }
                /* (3): a member the last renewal healed holds the key at the next one */
                if ($k['heal'][$s] && !$st['out'] && $t < $k['pe'] && !$mine) {
                    $v = "property 3: s$s was healed by c$c's last renewal but lacks its key at the next one";
                }
                $k['heal'][$s] = 0;
                break;
            case 'rel':
                if ($mine) {
                    $i[0] = '';
                    $i[1] = 0;
                }
                $k['req'][$s] = 'y';
                break;
        }
        unset($i, $k);
        return [$n, $v];
    }

    private function complete(array $st, int $c): array
    {
        $r = $this->complete1($st, $c);
        $k = &$r[0]['cl'][$c];
        if ($k['ph'] === 'idle' || $k['ph'] === 'hold') {
            $k['req'] = array_fill(0, N, '');
            $k['val'] = array_fill(0, N, 0);
            $k['ep'] = array_fill(0, N, -1);
            $k['first'] = -1;
            $k['t0'] = 0;
            $k['fmin'] = 0;
        }
        if ($k['ph'] === 'idle') {
            $k['fence'] = 0;
            $k['heal'] = array_fill(0, N, 0);
            $k['hu'] = array_fill(0, N, 0);
            $k['marks'] = array_fill(0, N, -1);
            $k['wrote'] = 0;
            $k['exts'] = 0;
        }
        unset($k);
        return $r;
    }

    private function complete1(array $st, int $c): array
    {
        $n = $st;
        $t = $st['t'];
        $k = &$n['cl'][$c];
        $elapsed = $t - $k['t0'];
        $validity = $this->variant === 'validity-ignores-elapsed' ? TTL - D : TTL - $elapsed - D;
        $end = $t + $validity;
        $v = null;
        $yes = 0;
        for ($s = 0; $s < N; $s++) {
            if ($k['req'][$s] !== 'y') {
                continue;
            }
            if ($k['ph'] === 'ext' && $this->variant !== 'changed-master-counts' && $k['marks'][$s] >= 0 &&
                $k['marks'][$s] !== $k['ep'][$s]) {
                continue; /* the master changed since the lock was taken: a suspect, not a holder */
            }
            if ($k['ph'] === 'ext' && $this->variant !== 'late-heal-counts' && $k['hu'][$s] > 0 && $t >= $k['hu'][$s]) {
                continue; /* its yes came after the promise of the extend that healed it: the heal may have landed late */
            }
            $yes++;
        }
        $won = $yes >= $this->q && $validity > 0;
        switch ($k['ph']) {
            case 'acq1':
                if (!$won) {
                    unset($k);
                    return $this->giveUp($n, $c, "fails ($yes votes, validity $validity), rollback sent");
                }
                $f = 0;
                for ($s = 0; $s < N; $s++) {
                    if ($k['req'][$s] === 'y') {
                        $f = max($f, $k['val'][$s]);
                    }
                }
                if ($this->variant === 'fence-first-vote') {
                    $f = $k['val'][$k['first']];
                }
                $k['fence'] = $f;
                for ($s = 0; $s < N; $s++) {
                    $k['marks'][$s] = $k['ep'][$s];
                }
                $t0 = $k['t0'];
                $this->invoke($n, $c, 'acq2');
                $n['cl'][$c]['t0'] = $t0; /* validity counts from the first round */
                unset($k);
                return [$n, "quorum ($yes votes), fence $f, write-back sent", null];
            case 'acq2':
                if (!$won) {
                    unset($k);
                    return $this->giveUp($n, $c, "write-back without quorum ($yes), rollback sent");
                }
                $k['ph'] = 'hold';
                $k['pe'] = $end;
                $k['acqAt'] = $t;
                if (!$st['ctrlost'] && $k['fence'] <= $k['fmin']) {
                    $v = "property 2: c$c's fence {$k['fence']} is not above {$k['fmin']}, the fence of a lock " .
                        "completed before c$c invoked lock";
                }
                $n['maxf'] = max($n['maxf'], $k['fence']);
                unset($k);
                $v = $v ?? $this->exclusion($n, $c);
                return [$n, "holds, fence {$n['cl'][$c]['fence']}, promised [$t, $end)", $v];
            case 'ext':
                $k['ph'] = 'hold'; /* won or not, the call is over: the holder may extend again or unlock */
                $heal = $this->variant === 'no-healing' ? false
                    : ($won || $this->variant === 'heal-after-quorum-lost');
                $healed = [];
                if ($heal) {
                    for ($s = 0; $s < N; $s++) {
                        if ($k['req'][$s] === 'n') {
                            $k['pend'][$s][] = ['heal', $k['tok']];
                            $healed[] = "s$s";
                        }
                    }
                }
                for ($s = 0; $s < N; $s++) {
                    /* (3) is judged at the next renewal of every member that answered this one empty */
                    $k['heal'][$s] = ($won && $k['req'][$s] === 'n') ? 1 : 0;
                    /* a reply came after the heal (one connection, in order): in time, or under this quorum */
                    if ($k['hu'][$s] > 0 && in_array($k['req'][$s], ['y', 'n', 'o'], true) && ($t < $k['hu'][$s] || $won)) {
                        $k['hu'][$s] = 0;
                    }
                    if ($heal && $won && $k['req'][$s] === 'n' && $k['hu'][$s] === 0) {
                        $k['hu'][$s] = $end;
                    }
                }
                if (!$won) {
                    unset($k);
                    return [$n, "false ($yes votes, validity $validity)" .
                        ($healed ? ', re-create sent to ' . implode(',', $healed) : ''), null];
                }
                for ($s = 0; $s < N; $s++) {
                    if ($k['req'][$s] !== 'x') {
                        $k['marks'][$s] = $k['ep'][$s]; /* adoption */
                    }
                }
                $k['pe'] = max($k['pe'], $end);
                /* a lock array another client acquired since may not be extended by its old holder */
                for ($d = 0; $d < C; $d++) {
                    if ($d !== $c && $n['cl'][$d]['acqAt'] > $k['acqAt']) {
                        $v = ($st['out'] ? 'OUTSIDE ' : '') . "property 1: c$c's lock was extended at $t after c$d acquired it at " .
                            "{$n['cl'][$d]['acqAt']} (c$c's lock was lost in between)";
                    }
                }
                unset($k);
                $v = $v ?? $this->exclusion($n, $c);
                return [$n, "true ($yes votes), promised until $end" .
                    ($healed ? ', re-create sent to ' . implode(',', $healed) : ''), $v];
            case 'rel':
                $k['ph'] = 'idle';
                $k['acqAt'] = -1;
                unset($k);
                return [$n, 'released', null];
        }
        throw new LogicException('phase');
    }

    /** a failed attempt deletes its keys where it answered (in the model at once: a rollback only deletes our
     * own key, so a late one cannot do more than an early one; FIFO puts it behind our SET) */
    /** An acquisition round without a quorum: the rollback sent, client $c idle again. The step's result. */
    private function giveUp(array $n, int $c, string $what): array
    {
        $this->rollback($n, $c);
        $n['cl'][$c]['ph'] = 'idle';
        return [$n, $what, null];
    }

    private function rollback(array &$n, int $c): void
    {
        $tok = $n['cl'][$c]['tok'];
        for ($s = 0; $s < N; $s++) {
            if ($n['cl'][$c]['req'][$s] === 'x' || !$n['srv'][$s]['up']) {
                continue;
            }
            $w = self::inst($n, $c, $s);
            if ($n['srv'][$s][$w][0] === $tok) {
                $n['srv'][$s][$w][0] = '';
                $n['srv'][$s][$w][1] = 0;
            }
        }
    }

    /** (1): a promise that starts now must not meet another holder's promise */
    private function exclusion(array $n, int $c): ?string
    {
        $t = $n['t'];
        for ($d = 0; $d < C; $d++) {
            if ($d !== $c && $n['cl'][$d]['pe'] > $t) {
                return ($n['out'] ? 'OUTSIDE ' : '') .
                    "property 1: c$c is promised the lock from $t while c$d's promise runs until " .
                    "{$n['cl'][$d]['pe']}";
            }
        }
        return null;
    }
}

/** @return array{states:int, seconds:float, violation:?string, trace:list<string>, outside:int,
 *   outsideTrace:?list<string>, outsideWhat:?string} */
function model_pack(array $st): string
{
    return function_exists('igbinary_serialize') ? igbinary_serialize($st) : serialize($st);
}

function model_unpack(string $s): array
{
    return function_exists('igbinary_unserialize') ? igbinary_unserialize($s) : unserialize($s);
}

function model_check(string $run, string $variant): array
{
    $m = new Model($run, $variant);
    $start = hrtime(true);
    $init = $m->init();
    $maxDepth = (int)(getenv('MODEL_DEPTH') ?: $m->cfg['depth']);
    if (getenv('MODEL_QUICK') && $variant === 'correct' && !getenv('MODEL_DEPTH')) {
        $maxDepth = $m->cfg['quick_depth'] ?? 11;
    }
    /* depth-first, every state kept with the smallest depth it was reached at (a state reached again at a
     * smaller depth is explored again, so the bound on steps is exact) */
    $seen = [md5(model_pack($init), true) => 0];
    $stack = [[$init, $m->next($init), 0]];
    $outside = 0;
    $outsideTrace = null;
    $outsideWhat = null;
    $trace = static function (array $stack, ?string $act): array {
        $tr = [];
        foreach ($stack as $k => $f) {
            if ($k > 0) {
                $tr[] = $stack[$k - 1][1][$stack[$k - 1][2] - 1][0];
            }
        }
        if ($act !== null) {
            $tr[] = $act;
        }
        return $tr;
    };
    while ($stack !== []) {
        $top = count($stack) - 1;
        $f = &$stack[$top];
        if ($f[2] >= count($f[1])) {
            unset($f);
            array_pop($stack);
            continue;
        }
        [$act, $ns, $viol] = $f[1][$f[2]];
        $f[2]++;
        unset($f);
        if ($viol !== null && str_starts_with($viol, 'OUTSIDE ')) {
            $outside++;
            if ($outsideTrace === null) {
                $outsideTrace = $trace($stack, $act);
                $outsideWhat = substr($viol, 8);
            }
        } elseif ($viol !== null) {
            return ['states' => count($seen), 'seconds' => (hrtime(true) - $start) / 1e9,
                'violation' => $viol, 'trace' => $trace($stack, $act), 'outside' => $outside,
                'outsideTrace' => $outsideTrace, 'outsideWhat' => $outsideWhat];
        }
        $d = $top + 1;
        $h = md5(model_pack($ns), true);
        if (isset($seen[$h]) && $seen[$h] <= $d) {
            continue;
        }
        $seen[$h] = $d;
        if ($d < $maxDepth) {
            $stack[] = [$ns, $m->next($ns), 0];
        }
    }
    return ['states' => count($seen), 'seconds' => (hrtime(true) - $start) / 1e9, 'violation' => null,
        'trace' => [], 'outside' => $outside, 'outsideTrace' => $outsideTrace, 'outsideWhat' => $outsideWhat];
}

/** a schedule found by reasoning, followed step by step: the same rules, no search */
function model_replay(string $run, string $variant, string $file): int
{
    if (!isset(RUNS[$run], VARIANTS[$variant]) || !is_readable($file)) {
        fwrite(STDERR, "--replay needs --run=RUN, --variant=VARIANT and a readable schedule\n");
        return 2;
    }
    $m = new Model($run, $variant);
    $st = $m->init();
    $labels = array_values(array_filter(array_map('trim', file($file)), static fn ($l) => $l !== '' && $l[0] !== '#'));
    foreach ($labels as $i => $label) {
        $hit = null;
        foreach ($m->next($st) as $succ) {
            if (str_starts_with($succ[0], $label)) {
                $hit = $succ;
                break;
            }
        }
        if ($hit === null) {
            printf("    %2d. not enabled here: %s\n", $i + 1, $label);
            return 1;
        }
        [$act, $st, $viol] = $hit;
        printf("    %2d. %s\n%s", $i + 1, $act, $viol !== null ? "        VIOLATION: $viol\n" : '');
    }
    return 0;
}

function model_main(array $argv): int
{
    $opts = getopt('', ['run:', 'variant:', 'trace', 'quiet', 'quick', 'replay:']);
    if (isset($opts['replay'])) {
        return model_replay($opts['run'] ?? '', $opts['variant'] ?? '', $opts['replay']);
    }
    $runs = isset($opts['run']) ? [$opts['run']] : array_keys(RUNS);
    if (isset($opts['quick'])) {
        /* CI: the correct model of runs core and fences within 11 steps, heal-small and sentinel-small whole, and
         * their variants */
        $runs = ['core', 'fences', 'heal-small', 'sentinel-small'];
        putenv('MODEL_QUICK=1');
    }
    $variant = $opts['variant'] ?? 'all';
    $showTrace = isset($opts['trace']);
    $jobs = [];
    foreach ($runs as $run) {
        if (!isset(RUNS[$run])) {
            fwrite(STDERR, "unknown run $run\n");
            return 2;
        }
        if ($variant === 'all' || $variant === 'correct') {
            $jobs[] = [$run, 'correct'];
        }
    }
    foreach (VARIANT_RUN + VARIANT_NONE_IN as $v => $run) {
        if (($variant === 'all' || $variant === $v) && in_array($run, $runs, true)) {
            $jobs[] = [$run, $v];
        }
    }
    if ($jobs === []) {
        fwrite(STDERR, "nothing to check (variants: " . implode(', ', array_keys(VARIANTS)) . ")\n");
        return 2;
    }
    printf("model: N=%d servers, C=%d clients, ttl=%d ticks, drift=%d tick, quorum=%d\n", N, C, TTL, D, intdiv(N, 2) + 1);
    $ok = true;
    $total = 0;
    $t0 = hrtime(true);
    foreach ($jobs as [$run, $v]) {
        $r = model_check($run, $v);
        $total += $r['states'];
        $found = $r['violation'] !== null;
        $good = $v === 'correct' || isset(VARIANT_NONE_IN[$v]) ? !$found : $found;
        $ok = $ok && $good;
        printf("%-8s %-26s %9d states %6.2f s  %s%s\n", $run, $v, $r['states'], $r['seconds'],
            ($found ? 'VIOLATION (' . count($r['trace']) . ' steps): ' . $r['violation'] : 'no violation') .
            (isset(VARIANT_NONE_IN[$v]) ? ' (none expected in this run, README)' : ''),
            $good ? '' : '  <-- UNEXPECTED');
        if ($r['outside'] > 0) {
            printf("%-8s %-26s %9s outside the model: %d overlaps reached (%s, %d steps)\n", '', '', '',
                $r['outside'], $r['outsideWhat'], count($r['outsideTrace']));
        }
        if ($found && ($showTrace || !$good)) {
            foreach ($r['trace'] as $i => $a) {
                printf("    %2d. %s\n", $i + 1, $a);
            }
        }
        if ($showTrace && $r['outsideTrace'] !== null && $v === 'correct') {
            echo "    a trace outside the model:\n";
            foreach ($r['outsideTrace'] as $i => $a) {
                printf("    %2d. %s\n", $i + 1, $a);
            }
        }
    }
    printf("model: %s; %d states in %.1f s\n", $ok ? 'ok (the correct model has no violation, every planted variant has one, as expected)' : 'FAILED',
        $total, (hrtime(true) - $t0) / 1e9);
    return $ok ? 0 : 1;
}

if (realpath($argv[0] ?? '') === __FILE__) {
    exit(model_main($argv));
}
