--TEST--
Resolver: a 60 ms host name lookup for one of 3 servers with timeouts of 0.05 s fails only that server: the two healthy ones win the lock, and the next call uses the cached address
--EXTENSIONS--
redlock
--FILE--
<?php
require __DIR__ . '/../inc/slow_resolver.inc';
$ports = array_column([rt_spawn_server(), rt_spawn_server(), rt_spawn_server()], 'port');
$key = rt_key();
$log = sr_log();
$name = 'ms60-redis.slow.test';
rt_redis($ports[2], 'SET', "$key-2", 'someone-else', 'PX', '60000');

$out = sr_run(<<<'PHP'
[$p0, $p1, $p2] = $args['ports'];
// 3 attempts: under valgrind a first connect may miss 50 ms; before the fix every attempt failed.
$r = new RedLock([[$args['name'], $p0, 0.05], ['127.0.0.1', $p1, 0.05], ['127.0.0.1', $p2, 0.05]], 10, 3);
$lock = $r->lock($args['key'] . '-1', 1000);
$out['first'] = ['locked' => is_array($lock), 'errors' => $r->getLastErrors()];
usleep(150000); // the lookup is done and cached by now
$lock = $r->lock($args['key'] . '-2', 1000); // needs the slow-named server: the third is taken
$out['second'] = ['locked' => is_array($lock), 'errors' => $r->getLastErrors()];
echo json_encode($out);
PHP, ['ports' => $ports, 'key' => $key, 'name' => $name, 'log' => $log]);

$r = json_decode($out, true) ?? rt_fatal("the child printed: $out");
$fine = fn ($e) => $e === null || $e === 'no reply needed';
$c = $r['first'];
echo 'first: ', $c['locked'] ? 'locked' : 'not locked',
        /* Not waited for: the quorum came first ("no reply needed"), or its timeout did. */
    ', slow server: ', $c['errors'][0] === 'no reply needed' || str_starts_with((string) $c['errors'][0], 'connect: ')
        ? 'not waited for' : json_encode($c['errors'][0]),
    ', others: ', $fine($c['errors'][1]) && $fine($c['errors'][2]) ? 'fine' : json_encode($c['errors']), "\n";
$c = $r['second'];
echo 'second: ', $c['locked'] ? 'locked' : 'not locked', ', votes: ', implode(', ', array_map('sr_vote', $c['errors'])), "\n";
echo 'lookups of the slow name: ', sr_lookups($log, $name), "\n";
?>
--EXPECT--
first: locked, slow server: not waited for, others: fine
second: locked, votes: yes, yes, taken or not needed
lookups of the slow name: 1
