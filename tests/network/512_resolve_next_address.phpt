--TEST--
Resolver: when the first address of a name has no listener (::1, or 127.0.0.2, then 127.0.0.1), the connection goes to the next address and the server votes
--EXTENSIONS--
redlock
--FILE--
<?php
require __DIR__ . '/../inc/slow_resolver.inc';
$ports = array_column([rt_spawn_server(), rt_spawn_server(), rt_spawn_server()], 'port');
$key = rt_key();
$names = ['v6first-a.slow.test', 'deadfirst-b.slow.test', 'deadfirst-c.slow.test'];
// Each lock needs two given servers: the third is taken.
rt_redis($ports[0], 'SET', "$key-a", 'someone-else', 'PX', '60000');
rt_redis($ports[1], 'SET', "$key-b", 'someone-else', 'PX', '60000');
rt_redis($ports[2], 'SET', "$key-c", 'someone-else', 'PX', '60000');

$out = sr_run(<<<'PHP'
$servers = [];
foreach ($args['names'] as $i => $name) {
    $servers[] = [$name, $args['ports'][$i], 0.5];
}
$r = new RedLock($servers, 10, 1);
foreach (['a', 'b', 'c'] as $taken) {
    $lock = $r->lock($args['key'] . "-$taken", 10000);
    $out[$taken] = ['locked' => is_array($lock), 'errors' => $r->getLastErrors()];
}
echo json_encode($out);
PHP, ['ports' => $ports, 'key' => $key, 'names' => $names]);

$r = json_decode($out, true) ?? rt_fatal("the child printed: $out");
foreach ($r as $taken => $c) {
    echo "server $taken taken: ", $c['locked'] ? 'locked' : 'not locked', ', votes: ', implode(', ', array_map('sr_vote', $c['errors'])), "\n";
}
?>
--EXPECT--
server a taken: locked, votes: taken or not needed, yes, yes
server b taken: locked, votes: yes, taken or not needed, yes
server c taken: locked, votes: yes, yes, taken or not needed
