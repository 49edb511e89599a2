--TEST--
Resolver: a 2.5 s host name lookup for one of 3 servers (its timeout 1 s) does not hold up lock(): the two others win at once, a second call too, and once the lookup is done its cached address is used (one lookup in all)
--EXTENSIONS--
redlock
--FILE--
<?php
require __DIR__ . '/../inc/slow_resolver.inc';
$ports = array_column([rt_spawn_server(), rt_spawn_server(), rt_spawn_server()], 'port');
$key = rt_key();
$log = sr_log();
$name = 'ms2500-redis.slow.test';
/* The bound on the first two calls: two round trips, longer on a machine busier than its cores, always below
 * the 2500 ms a lookup that held lock() up costs. */
$bound = min(2300, 700 * rt_load_scale());
// The third call can win only with the slow-named server's vote: the last server is taken.
rt_redis($ports[2], 'SET', "$key-3", 'someone-else', 'PX', '60000');

$out = sr_run(<<<'PHP'
[$p0, $p1, $p2] = $args['ports'];
/* The servers that must answer get 2 s, which a loaded machine's late reply does not reach. The slow-named one
 * gets 1 s: less than its lookup (a call that started a second lookup could not finish it), enough for the
 * third call's round trip to it, and for the rest of the first lookup should its thread run late. */
$r = new RedLock([[$args['name'], $p0, 1.0], ['127.0.0.1', $p1, 2.0], ['127.0.0.1', $p2, 2.0]], 10, 3);
$timed = function (string $key) use ($r) {
    $t = hrtime(true);
    $lock = $r->lock($key, 500);
    return ['locked' => is_array($lock), 'ms' => (hrtime(true) - $t) / 1e6, 'errors' => $r->getLastErrors(),
        'token' => $lock['token'] ?? null];
};
$start = hrtime(true);
$out['first'] = $timed($args['key'] . '-1');
usleep(200000);
$out['second'] = $timed($args['key'] . '-2');
// The lookup the first call started ends 2.5 s after it: wait for that, plus a margin.
$left = 2.8e9 - (hrtime(true) - $start);
usleep($left > 0 ? (int) ($left / 1000) : 0);
$out['third'] = $timed($args['key'] . '-3');
echo json_encode($out);
PHP, ['ports' => $ports, 'key' => $key, 'name' => $name, 'log' => $log]);

$r = json_decode($out, true) ?? rt_fatal("the child printed: $out");
$fine = fn ($e) => $e === null || $e === 'no reply needed';
foreach (['first', 'second'] as $call) {
    $c = $r[$call];
    echo "$call: ", $c['locked'] ? 'locked' : 'not locked',
        $c['ms'] < $bound ? ', bounded' : sprintf(', took %.0f ms', $c['ms']),
            /* Not waited for: the quorum came first ("no reply needed"), or its timeout did. */
    ', slow server: ', $c['errors'][0] === 'no reply needed' || str_starts_with((string) $c['errors'][0], 'connect: ')
        ? 'not waited for' : json_encode($c['errors'][0]),
        ', others: ', $fine($c['errors'][1]) && $fine($c['errors'][2]) ? 'fine' : json_encode($c['errors']), "\n";
}
$c = $r['third'];
echo 'third: ', $c['locked'] ? 'locked' : 'not locked', ', votes: ', implode(', ', array_map('sr_vote', $c['errors'])), "\n";
var_dump(rt_redis($ports[0], 'GET', "$key-3") === $c['token']);
echo 'lookups of the slow name: ', sr_lookups($log, $name), "\n";
?>
--EXPECT--
first: locked, bounded, slow server: not waited for, others: fine
second: locked, bounded, slow server: not waited for, others: fine
third: locked, votes: yes, yes, taken or not needed
bool(true)
lookups of the slow name: 1
