<?php
/* Reshardings and failovers for verify/chaos/run.php (--members=cluster, --preset=cluster-short): a Redis Cluster of
 * 3 masters and 3 replicas (scripts/redis-cluster.sh, ports base .. base + 5, the guard at base + 9), the
 * workers' RedLock made by RedLock::fromCluster() over its masters. The faults: CLUSTER FAILOVER of a
 * master (coordinated: the replica catches up first, so it loses nothing), and a live resharding of a few
 * slots from one master to another (redis-cli --cluster reshard: MIGRATE keeps the keys and their ttl).
 * Both are in the model: a member whose slot moved, or whose master changed, counts as not holding a
 * tracked lock until renewal heals it (docs/design/cluster.md), and the quorum tolerates one at a time. */

function cc_start(int $base, string $dir): string
{
    $root = dirname(__DIR__, 2);
    exec('bash ' . escapeshellarg("$root/scripts/redis-cluster.sh") . " start $base " . escapeshellarg("$dir/cluster") . ' 2>&1',
        $out, $status);
    if ($status !== 0) {
        throw new RuntimeException('the cluster did not start: ' . implode("\n", $out));
    }
    return trim((string) end($out));
}

function cc_stop(string $dir): void
{
    exec('bash ' . escapeshellarg(dirname(__DIR__, 2) . '/scripts/redis-cluster.sh') . ' stop ' . escapeshellarg("$dir/cluster"));
}

/** port => [id, master (bool), of (a replica's master id), slots (count)] as node $base sees it. */
function cc_nodes(int $base): array
{
    for ($p = $base; $p < $base + 6; $p++) {
        $text = Resp::ask($p, 1.0, 'CLUSTER', 'NODES');
        if (is_string($text)) {
            break;
        }
    }
    $nodes = [];
    foreach (explode("\n", trim((string) ($text ?? ''))) as $line) {
        $f = explode(' ', trim($line));
        if (count($f) < 8) {
            continue;
        }
        $port = (int) explode('@', explode(':', $f[1])[1])[0];
        $nodes[$port] = ['id' => $f[0], 'master' => str_contains($f[2], 'master') && !str_contains($f[2], 'fail'),
            'of' => $f[3], 'slots' => count(array_slice($f, 8))];
    }
    return $nodes;
}

/** One fault, bounded (30 s); the seconds it took, or null when it did not end in time. */
function cc_fault(int $base, string $kind): ?float
{
    $start = microtime(true);
    $nodes = cc_nodes($base);
    $masters = array_keys(array_filter($nodes, fn ($n) => $n['master'] && $n['slots'] > 0));
    if (count($masters) < 3) {
        return null;
    }
    shuffle($masters);
    if ($kind === 'failover') {
        foreach ($nodes as $port => $n) {
            if (!$n['master'] && $n['of'] === $nodes[$masters[0]]['id']) {
                Resp::ask($port, 1.0, 'CLUSTER', 'FAILOVER');
                while (microtime(true) < $start + 30) {
                    $role = Resp::ask($port, 1.0, 'ROLE');
                    if (is_array($role) && $role[0] === 'master') {
                        return round(microtime(true) - $start, 2);
                    }
                    usleep(50000);
                }
                return null;
            }
        }
        return null;
    }
    exec('timeout 30 redis-cli --cluster reshard 127.0.0.1:' . $masters[0] . ' --cluster-from ' . $nodes[$masters[0]]['id']
        . ' --cluster-to ' . $nodes[$masters[1]]['id'] . ' --cluster-slots 20 --cluster-yes >/dev/null 2>&1', $out, $status);
    return $status === 0 ? round(microtime(true) - $start, 2) : null;
}

function cc_chaos(int $base, array $procs, float $hardStop, string $mode): array
{
    $events = ['failovers' => 0, 'reshardings' => 0, 'not_ended' => 0, 'fault_s_max' => 0.0];
    $next = microtime(true) + 1.0;
    $kind = 'failover';
    while (microtime(true) < $hardStop) {
        if (!chaos_any_running($procs)) {
            break;
        }
        if ($mode !== 'none' && microtime(true) >= $next) {
            $kind = in_array($mode, ['failover', 'reshard'], true) ? $mode : $kind;
            $took = cc_fault($base, $kind);
            $events[$took === null ? 'not_ended' : ($kind === 'failover' ? 'failovers' : 'reshardings')]++;
            $events['fault_s_max'] = round(max($events['fault_s_max'], $took ?? 0.0), 2);
            $kind = $kind === 'failover' ? 'reshard' : 'failover';
            /* a few ttls and renewals apart: the member that changed is healed before the next fault (two
             * restarts within a ttl are two of 3 members forgetting: outside Redlock's model) */
            $next = microtime(true) + mt_rand(3000, 5000) / 1000;
        }
        usleep(20000);
    }
    return $events;
}
