<?php
/* What bench/cycle.php and bench/contend.php share: their server list argument, "H:P,H:P,...", as the
 * [host, port, timeout] triples RedLock and BaselineRedLock take (1 s timeout each). */
function bench_servers(string $list): array
{
    $servers = [];
    foreach (explode(',', $list) as $hostPort) {
        [$host, $port] = explode(':', $hostPort);
        $servers[] = [$host, (int) $port, 1.0];
    }
    return $servers;
}
