<?php
/* Failovers for verify/chaos/run.php (--members=sentinel, --preset=failover-short): 3 Sentinel-managed
 * members, each a master and a replica, and 3 redis-sentinels shared by the 3 (one process each,
 * monitoring all three names): 9 processes besides the guard. Ports from --port-base: member m's
 * servers at base + 2m and base + 2m + 1, the sentinels at base + 6 .. base + 8, the guard at
 * base + 9. The fault: SENTINEL FAILOVER of a random member, then what Sentinel sends the old master
 * once its role is stable (REPLICAOF the new one, CLIENT KILL TYPE normal), sent at once. One
 * failover at a time, the next 0.5-1.5 s after the last one ended.
 *
 * --failover=clean (the preset's): the old master's writes are paused (CLIENT PAUSE WRITE) and the
 * replica caught up before the failover, and the pause lasts until the old master is demoted: nothing
 * acknowledged is lost and no two masters take writes. The members change masters under the locks
 * but never forget a key: the algorithm's assumptions hold, and any violation fails the run.
 * --failover=lossy: no pause. What asynchronous replication had not delivered is lost, and until the
 * demotion the old master still takes writes from the connections open to it: each failover may make
 * its member forget keys (a restart without Redlock's delayed restart: docs/design/sentinel.md). A
 * demonstration: reported, never failed. --failover=none: no fault (what the same load loses alone). */

const FO_MEMBERS = 3;

/** Starts the servers and sentinels; returns the topology (servers by port, as start_server's). */
function fo_start(int $base, string $dir, int $members = FO_MEMBERS): array
{
    $servers = [];
    for ($m = 0; $m < $members; $m++) {
        $servers[$base + 2 * $m] = start_server($base + 2 * $m, $dir);
        $servers[$base + 2 * $m + 1] = start_server($base + 2 * $m + 1, $dir);
        foreach ([0, 1] as $r) { /* no 5 s wait before a full sync (Redis 7's diskless default) */
            $c = Resp::connect($base + 2 * $m + $r);
            $c->call('CONFIG', 'SET', 'repl-diskless-sync-delay', '0');
            if ($r === 1) {
                $c->call('REPLICAOF', '127.0.0.1', (string) ($base + 2 * $m));
            }
            $c->close();
        }
    }
    for ($s = 0; $s < 3; $s++) {
        $port = $base + 6 + $s;
        $conf = "port $port\nbind 127.0.0.1\ndir $dir\nlogfile $dir/sentinel-$port.log\n";
        for ($m = 0; $m < $members; $m++) {
            $conf .= "sentinel monitor m$m 127.0.0.1 " . ($base + 2 * $m) . " 2\n"
                . "sentinel down-after-milliseconds m$m 1000\nsentinel failover-timeout m$m 3000\n";
        }
        file_put_contents("$dir/sentinel-$port.conf", $conf);
        $servers[$port] = start_server($port, $dir, ['redis-sentinel', "$dir/sentinel-$port.conf"]);
    }
    $deadline = microtime(true) + 30;
    for ($m = 0; $m < $members; $m++) {
        while (fo_master($base, $m, true) !== $base + 2 * $m) {
            if (microtime(true) > $deadline) {
                throw new RuntimeException("the sentinels of m$m did not find the replica and each other in 30 s");
            }
            usleep(100000);
        }
    }
    return $servers;
}

/** sentinel://... URIs of the 3 members, for the workers. */
function fo_uris(int $base, float $timeout, int $members = FO_MEMBERS): array
{
    $hosts = implode(',', array_map(fn ($s) => '127.0.0.1:' . ($base + 6 + $s), range(0, 2)));
    return array_map(fn ($m) => "sentinel://$hosts/m$m?timeout=$timeout", range(0, $members - 1));
}

/** The master every sentinel names for m$m when they agree (each knowing the 2 others) and it says
 * it is master; with $replica also a replica attached to it, seen by the sentinels (a failover needs
 * one). Else null. */
function fo_master(int $base, int $m, bool $replica): ?int
{
    $named = [];
    for ($s = 0; $s < 3; $s++) {
        $said = Resp::ask($base + 6 + $s, 1.0, 'SENTINEL', 'MASTER', "m$m");
        if (!is_array($said)) {
            return null;
        }
        $info = [];
        for ($i = 0; $i + 1 < count($said); $i += 2) {
            $info[$said[$i]] = $said[$i + 1];
        }
        if (($info['flags'] ?? '') !== 'master' || (int) ($info['num-other-sentinels'] ?? 0) !== 2
            || ($replica && (int) ($info['num-slaves'] ?? 0) < 1)) {
            return null;
        }
        $named[] = (int) $info['port'];
    }
    if (count(array_unique($named)) !== 1) {
        return null;
    }
    $role = Resp::ask($named[0], 1.0, 'ROLE');
    return is_array($role) && $role[0] === 'master' && (!$replica || !empty($role[2])) ? $named[0] : null;
}

/** One failover of m$m, bounded (30 s): forced, waited for, the old master demoted. Returns the
 * seconds it took, or null when it did not end in time (reported, not failed: the workers' checks
 * are the verdict). */
function fo_failover(int $base, int $m, bool $clean): ?float
{
    /* A command to a server Sentinel may be reconfiguring: it closes normal clients (ours too) when it
     * demotes the old master, so a dead link is an answer here (null), not the run's end. */
    $call = function (?Resp $c, string ...$args): mixed {
        try {
            return $c?->call(...$args);
        } catch (RuntimeException) {
            return null;
        }
    };
    $start = microtime(true);
    $deadline = $start + 30;
    while (($old = fo_master($base, $m, true)) === null) { /* the last failover's replica still syncing */
        if (microtime(true) > $deadline) {
            return null;
        }
        usleep(100000);
    }
    $master = Resp::connect($old, 1.0);
    if ($clean && $master !== null) {
        $replica = Resp::connect($old === $base + 2 * $m ? $old + 1 : $old - 1, 1.0);
        $call($master, 'CLIENT', 'PAUSE', '20000', 'WRITE');
        $offset = fn ($c, $field) => preg_match("/$field:(\\d+)/", (string) $call($c, 'INFO', 'replication'), $f) ? (int) $f[1] : -1;
        $want = $offset($master, 'master_repl_offset');
        while ($offset($replica, 'slave_repl_offset') < $want && microtime(true) < $start + 2) {
            usleep(5000);
        }
        $replica?->close();
    }
    $sentinel = Resp::connect($base + 6 + mt_rand(0, 2), 1.0);
    while (!is_string($call($sentinel, 'SENTINEL', 'FAILOVER', "m$m"))) { /* NOGOODSLAVE until it saw the replica */
        if (microtime(true) > $deadline) {
            $call($master, 'CLIENT', 'UNPAUSE');
            return null;
        }
        usleep(100000);
    }
    $sentinel->close();
    while (($new = fo_master($base, $m, false)) === null || $new === $old) {
        if (microtime(true) > $deadline) {
            $call($master, 'CLIENT', 'UNPAUSE');
            return null;
        }
        usleep(50000);
    }
    $call($master, 'REPLICAOF', '127.0.0.1', (string) $new);
    $call($master, 'CLIENT', 'KILL', 'TYPE', 'normal'); /* the paused writes with them */
    $call($master, 'CLIENT', 'UNPAUSE');
    $master?->close();
    return microtime(true) - $start;
}

/** The chaos loop of a failover run: until the workers end (or the hard stop), a failover of a
 * random member, one at a time. Returns the events. */
function fo_chaos(int $base, array $procs, float $hardStop, string $mode): array
{
    $events = ['failovers' => 0, 'failovers_not_ended' => 0, 'failover_s_max' => 0.0];
    $next = microtime(true) + 1.0;
    while (microtime(true) < $hardStop) {
        if (!chaos_any_running($procs)) {
            break;
        }
        if ($mode !== 'none' && microtime(true) >= $next) {
            $took = fo_failover($base, mt_rand(0, FO_MEMBERS - 1), $mode !== 'lossy');
            $events[$took === null ? 'failovers_not_ended' : 'failovers']++;
            $events['failover_s_max'] = round(max($events['failover_s_max'], $took ?? 0.0), 2);
            $next = microtime(true) + mt_rand(500, 1500) / 1000;
        }
        usleep(20000);
    }
    return $events;
}
