<?php
/* The faults of --preset=combined-all (verify/chaos/run.php) that the other presets run each in a runner of
 * their own, here in the one seeded chaos loop, each recorded in the run's faults file for the checker:
 *   the fault proxy (verify/chaos/faultproxy.c, as verify/chaos/netchaos.php drives it) in front of the plain
 *     lock servers: delays, drops (resets, blackholes, refused connects) and reorders (kind "net-<fault>");
 *   clean Sentinel failovers of Sentinel-managed members (verify/chaos/failover.php), from a child process of
 *     the runner, since a failover takes seconds (kind "failover", then "failover-end" or "failover-not-ended");
 *   scripts revoked on one plain lock server by ACL SETUSER default -@scripting, restored by +@all 0.5-2 s later
 *     ("acl-revoke", "acl-restore"; a restart restores them too).
 * All in the model: a delayed, dropped or reordered byte, a member that changes masters losing nothing, a server
 * that refuses scripts (it does not vote) break none of Redlock's assumptions. */

declare(strict_types=1);

/** Builds the fault proxy when missing or older than its source; its path. */
function cb_proxy_build(string $root): string
{
    $bin = "$root/.run/bin/faultproxy";
    @mkdir(dirname($bin), 0755, true);
    $sources = ["$root/verify/chaos/faultproxy.c", "$root/verify/chaos/faultproxy_ctl.c"];
    if (!is_file($bin) || filemtime($bin) < max(array_map('filemtime', array_merge($sources, ["$root/verify/chaos/faultproxy.h"])))) {
        exec('cc -O2 -Wall -o ' . escapeshellarg("$bin." . getmypid()) . ' ' . implode(' ', array_map('escapeshellarg', $sources)) . ' 2>&1', $out, $st);
        if ($st !== 0) {
            throw new RuntimeException("cannot build faultproxy:\n" . implode("\n", $out));
        }
        rename("$bin." . getmypid(), $bin);
    }
    return $bin;
}

/** The proxy listening on $listen[i] for $upstream[i], controlled on $ctlPort. */
function cb_proxy_start(string $root, string $runDir, array $listen, array $upstream, int $ctlPort, float $lifetime): array
{
    $maps = array_map(fn ($l, $u) => "$l:$u", $listen, $upstream);
    $proc = proc_open(array_merge([cb_proxy_build($root), '-c', (string) $ctlPort, '-t', (string) (int) ceil($lifetime)], $maps),
        [['file', '/dev/null', 'r'], ['pipe', 'w'], ['file', "$runDir/proxy.err", 'w']], $pipes);
    if ($proc === false || trim((string) fgets($pipes[1])) !== 'ready') {
        throw new RuntimeException('faultproxy did not start: ' . @file_get_contents("$runDir/proxy.err"));
    }
    $link = stream_socket_client("tcp://127.0.0.1:$ctlPort", $errno, $errstr, 2.0);
    if ($link === false) {
        throw new RuntimeException("faultproxy control port $ctlPort: $errstr");
    }
    stream_set_timeout($link, 5);
    return ['proc' => $proc, 'link' => $link, 'out' => $pipes[1]];
}

function cb_proxy_stop(?array &$proxy): void
{
    if ($proxy !== null) {
        proc_terminate($proxy['proc']);
        proc_close($proxy['proc']);
        $proxy = null;
    }
}

function cb_ctl(array $proxy, string $command): string
{
    fwrite($proxy['link'], "$command\n");
    $reply = rtrim((string) fgets($proxy['link']), "\n");
    if (!str_starts_with($reply, 'OK') && !str_contains($reply, 'is closed')) {
        throw new RuntimeException("faultproxy: $command -> $reply");
    }
    return $reply;
}

/** One network fault on one proxied server, drawn as netchaos.php draws them (without its kills and pauses:
 * run.php makes those). Returns [kind, listen port, undo (callable|null), undo after seconds]. */
function cb_net_fault(array $proxy, array $listen, int $delayMax = 400): array
{
    $lp = $listen[mt_rand(0, count($listen) - 1)];
    $open = array_slice(explode(' ', cb_ctl($proxy, "CONNS $lp")), 1);
    $conn = $open ? $open[mt_rand(0, count($open) - 1)] : null;
    $pick = mt_rand(1, 100);
    if ($pick <= 25 && $conn !== null) {
        /* a reorder across connections: an open connection reset, the next one's bytes held until a later
         * connection's bytes went through */
        cb_ctl($proxy, sprintf('SET %d next hold=%d', $lp, mt_rand(60, $delayMax)));
        cb_ctl($proxy, "SET $lp $conn mode=rst");
        return ['reorder', $lp, null, 0.0];
    }
    if ($pick <= 40) { /* a new connection's bytes arrive late (and its replies) */
        cb_ctl($proxy, sprintf('SET %d next delay_c2s=%d delay_s2c=%d', $lp, mt_rand(60, $delayMax), mt_rand(0, 1) ? mt_rand(0, 200) : 0));
        return ['delay-next', $lp, null, 0.0];
    }
    if ($pick <= 55 && $conn !== null) { /* an open connection delayed both ways for a while */
        cb_ctl($proxy, sprintf('SET %d %s delay_c2s=%d delay_s2c=%d', $lp, $conn, mt_rand(0, 400), mt_rand(0, 300)));
        return ['delay-open', $lp, fn () => cb_ctl($proxy, "SET $lp $conn delay_c2s=0 delay_s2c=0"), mt_rand(100, 600) / 1000];
    }
    if ($pick <= 65) {
        cb_ctl($proxy, sprintf('SET %d next hold=%d', $lp, mt_rand(60, 400)));
        return ['hold-next', $lp, null, 0.0];
    }
    if ($pick <= 75 && $conn !== null) { /* a drop: the connection reset */
        cb_ctl($proxy, "SET $lp $conn mode=rst");
        return ['reset', $lp, null, 0.0];
    }
    if ($pick <= 82) { /* a drop after N reply bytes */
        cb_ctl($proxy, sprintf('SET %d next rst_s2c=%d', $lp, mt_rand(1, 30)));
        return ['reset-reply', $lp, null, 0.0];
    }
    if ($pick <= 90) { /* a drop: bytes swallowed, the connection left open */
        cb_ctl($proxy, sprintf('SET %d %s mode=blackhole', $lp, $conn ?? 'next'));
        return ['blackhole', $lp, null, 0.0];
    }
    cb_ctl($proxy, "SET $lp new mode=refuse");
    return ['refuse', $lp, fn () => cb_ctl($proxy, "SET $lp new mode=normal"), mt_rand(50, 300) / 1000];
}

/** ACL SETUSER on a lock server, directly (not through the proxy): $allow false revokes every script command.
 * Returns null when it failed, else the NOPERM replies the server has sent since it started (INFO errorstats):
 * read before a restore, the count says the workers' objects met the revocation. */
function cb_acl(int $port, bool $allow): ?int
{
    $c = Resp::connect($port, 1.0);
    if ($c === null) {
        return null;
    }
    try {
        $noperm = preg_match('/errorstat_NOPERM:count=(\d+)/', (string) $c->call('INFO', 'errorstats'), $m) ? (int) $m[1] : 0;
        return $c->call('ACL', 'SETUSER', 'default', $allow ? '+@all' : '-@scripting') === 'OK' ? $noperm : null;
    } catch (RuntimeException) {
        return null;
    } finally {
        $c->close();
    }
}

/** Clean failovers of the $members Sentinel-managed members at $base (verify/chaos/failover.php), one at a time
 * every 0.5-1.5 s, in a child process until $stopFile exists or $hardStop: each recorded in $faultFile (time order,
 * flushed per record), the counts kept in $eventsFile. Returns the child's pid. The child leaves by SIGKILL to
 * itself: the runner's shutdown function (which stops every server) is the parent's alone. */
function cb_failovers_start(int $base, int $members, string $faultFile, string $eventsFile, string $stopFile,
    float $hardStop, string $scope, int $seed): int
{
    $pid = pcntl_fork();
    if ($pid !== 0) {
        if ($pid < 0) {
            throw new RuntimeException('cannot fork the failover loop');
        }
        return $pid;
    }
    pcntl_signal(SIGINT, SIG_DFL);
    pcntl_signal(SIGTERM, SIG_DFL);
    mt_srand($seed); /* not the parent's sequence */
    try {
        $log = fopen($faultFile, 'w');
        $events = ['failovers' => 0, 'failovers_not_ended' => 0, 'failover_s_max' => 0.0];
        $rec = function (string $kind, int $m) use ($log, $scope, $base): void {
            fwrite($log, json_encode(['op' => 'fault', 'kind' => $kind, 'port' => $base + 2 * $m, 'member' => "m$m",
                't' => hrtime(true), 'in_model' => true, 'scope' => $scope]) . "\n");
            fflush($log);
        };
        $next = microtime(true) + 1.0;
        while (microtime(true) < $hardStop && !is_file($stopFile) && posix_getppid() > 1) {
            if (microtime(true) >= $next) {
                $m = mt_rand(0, $members - 1);
                $rec('failover', $m);
                $took = fo_failover($base, $m, true);
                $rec($took === null ? 'failover-not-ended' : 'failover-end', $m);
                $events[$took === null ? 'failovers_not_ended' : 'failovers']++;
                $events['failover_s_max'] = round(max($events['failover_s_max'], $took ?? 0.0), 2);
                file_put_contents($eventsFile, json_encode($events));
                $next = microtime(true) + mt_rand(500, 1500) / 1000;
            }
            usleep(20000);
        }
        fclose($log);
    } catch (Throwable $e) {
        @file_put_contents($eventsFile . '.err', $e->getMessage());
    }
    posix_kill(posix_getpid(), SIGKILL);
    exit(0); /* not reached */
}
