--TEST--
Resolver: a name that does not resolve makes that server's vote "connect: resolve: Name or service not known", at once and without an exception; the failure is cached for a moment (one lookup for five calls)
--EXTENSIONS--
redlock
--FILE--
<?php
require __DIR__ . '/../inc/slow_resolver.inc';
$ports = array_column([rt_spawn_server(), rt_spawn_server()], 'port');
$key = rt_key();
$log = sr_log();
$name = 'fail-redis.slow.test';
// The bad name's vote is needed (the last server is taken), so its error is always awaited and reported.
for ($i = 0; $i < 5; $i++) {
    rt_redis($ports[1], 'SET', "$key-$i", 'someone-else', 'PX', '60000');
}

$out = sr_run(<<<'PHP'
[$p0, $p1] = $args['ports'];
$r = new RedLock([[$args['name'], 6379, 0.5], ['127.0.0.1', $p0, 0.5], ['127.0.0.1', $p1, 0.5]], 10, 1);
for ($i = 0; $i < 5; $i++) {
    $t = hrtime(true);
    try {
        $lock = $r->lock($args['key'] . "-$i", 10000);
    } catch (Throwable $e) {
        $lock = get_class($e) . ': ' . $e->getMessage();
    }
    $out[] = ['lock' => is_array($lock) ? 'locked' : ($lock === false ? 'not locked' : $lock), 'ms' => (hrtime(true) - $t) / 1e6, 'errors' => $r->getLastErrors()];
}
echo json_encode($out);
PHP, ['ports' => $ports, 'key' => $key, 'name' => $name, 'log' => $log]);

$r = json_decode($out, true) ?? rt_fatal("the child printed: $out");
foreach ($r as $i => $c) {
    echo "call $i: ", json_encode($c['lock']), $c['ms'] < 300 ? ', fast' : sprintf(', took %.0f ms', $c['ms']),
        ', bad name: ', json_encode($c['errors'][0]), "\n";
}
echo 'lookups of the bad name: ', sr_lookups($log, $name), "\n";
?>
--EXPECT--
call 0: "not locked", fast, bad name: "connect: resolve: Name or service not known"
call 1: "not locked", fast, bad name: "connect: resolve: Name or service not known"
call 2: "not locked", fast, bad name: "connect: resolve: Name or service not known"
call 3: "not locked", fast, bad name: "connect: resolve: Name or service not known"
call 4: "not locked", fast, bad name: "connect: resolve: Name or service not known"
lookups of the bad name: 1
