<?php
/**
 * Server-side cost of a release: the compare-and-delete script (EVALSHA) against the built-in
 * DELEX key IFEQ token (Redis >= 8.4) or DELIFEQ key token (Valkey >= 9), from INFO commandstats
 * (usec_per_call: time inside the server, whatever the client and the network).
 *   php bench/native_cost.php PORT [RELEASES=20000] [ROUNDS=3]
 * Each round: RESETSTAT, then RELEASES x (SET k tok; EVALSHA) and RELEASES x (SET k tok; native),
 * pipelined 100 at a time, the two kinds' batches alternating; every release deletes a key that
 * holds its token (the common case). Prints usec_per_call per round (the median is the figure).
 */
[$port, $n, $rounds] = [(int) ($argv[1] ?? 0), (int) ($argv[2] ?? 20000), (int) ($argv[3] ?? 3)];
$link = stream_socket_client("tcp://127.0.0.1:$port", $errno, $errstr, 2) ?: exit("cannot reach $port: $errstr\n");

function send($link, array $commands): array
{
    $out = '';
    foreach ($commands as $args) {
        $out .= '*' . count($args) . "\r\n";
        foreach ($args as $a) {
            $out .= '$' . strlen($a) . "\r\n$a\r\n";
        }
    }
    fwrite($link, $out);
    $replies = [];
    foreach ($commands as $_) {
        $replies[] = read_reply($link);
    }
    return $replies;
}

function read_reply($link): mixed
{
    $line = fgets($link);
    $body = substr($line, 1, -2);
    switch ($line[0]) {
        case '$':
            return (int) $body < 0 ? null : substr(stream_get_contents($link, (int) $body + 2), 0, -2);
        case '*':
            $items = [];
            for ($i = 0; $i < (int) $body; $i++) {
                $items[] = read_reply($link);
            }
            return $items;
        default:
            return $body;
    }
}

$script = "if redis.call('GET', KEYS[1]) == ARGV[1] then\n    return redis.call('DEL', KEYS[1])\nelse\n    return 0\nend\n";
[$sha] = send($link, [['SCRIPT', 'LOAD', $script]]);
$info = send($link, [['INFO', 'server']])[0];
$native = str_contains($info, 'server_name:valkey') ? 'DELIFEQ' : 'DELEX';
preg_match('/^(?:valkey|redis)_version:(\S+)/m', $info, $m);
$version = (str_contains($info, 'server_name:valkey') ? 'valkey ' : 'redis ') . ($m[1] ?? '?');
if (str_contains($info, 'server_name:valkey') && preg_match('/^valkey_version:(\S+)/m', $info, $v)) {
    $version = "valkey $v[1]";
}
$hasNative = is_numeric(send($link, [$native === 'DELEX' ? ['DELEX', 'probe', 'IFEQ', 'x'] : ['DELIFEQ', 'probe', 'x']])[0]);
$token = bin2hex(random_bytes(16));
for ($round = 1; $round <= $rounds; $round++) {
    send($link, [['CONFIG', 'RESETSTAT']]);
    // Batches of the two kinds alternate, so that the machine's noise falls on both alike.
    for ($i = 0; $i < $n; $i += 100) {
        foreach ($hasNative ? ['evalsha', 'native'] : ['evalsha'] as $kind) {
            $batch = [];
            for ($j = $i; $j < $i + 100; $j++) {
                $batch[] = ['SET', "cost:$j", $token, 'PX', '60000'];
                $batch[] = $kind === 'evalsha' ? ['EVALSHA', $sha, '1', "cost:$j", $token]
                    : ($native === 'DELEX' ? ['DELEX', "cost:$j", 'IFEQ', $token] : ['DELIFEQ', "cost:$j", $token]);
            }
            foreach (send($link, $batch) as $k => $reply) {
                if ($k % 2 === 1 && $reply !== '1') {
                    exit("unexpected reply $reply\n");
                }
            }
        }
    }
    $stats = send($link, [['INFO', 'commandstats']])[0];
    $per = [];
    foreach (['evalsha', strtolower($native), 'set'] as $c) {
        if (preg_match("/^cmdstat_$c:calls=(\d+),usec=(\d+),usec_per_call=([\d.]+)/m", $stats, $m)) {
            $per[$c] = "$c {$m[3]} us ({$m[1]} calls)";
        }
    }
    echo "$version, round $round: ", implode(', ', $per), "\n";
}
