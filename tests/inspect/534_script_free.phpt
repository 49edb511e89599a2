--TEST--
inspect() sends no script (issue 26, item 4): for a user without @scripting (ACL -@scripting) and an object with 'scripts' => false it reads each kind held by another object (exclusive, shared, semaphore) and a free resource, with no NOPERM among the servers' errors; the servers' script cache is not consulted (SCRIPT FLUSH before: nothing is loaded by it)
--EXTENSIONS--
redlock
--FILE--
<?php
require __DIR__ . '/../inc/redlock_test.inc';
$ports = array_slice(rt_ports(), 0, 3);
$password = 'pw-' . bin2hex(random_bytes(6));
foreach ($ports as $p) {
    rt_redis($p, 'ACL', 'SETUSER', 'i534', 'reset', 'on', ">$password", '~*', '&*', '+@all', '-@scripting');
}
$servers = array_map(fn ($p) => ['host' => '127.0.0.1', 'port' => $p, 'timeout' => 1.0, 'username' => 'i534',
    'password' => $password], $ports);
$reader = new RedLock($servers, 0, 1, ['scripts' => false]);
$holder = new RedLock(rt_servers(3), 0, 1);
$ex = rt_key('ex');
$sh = rt_key('sh');
$sem = rt_key('sem');
$holder->lock($ex, 5000);
$holder->lockShared($sh, 5000);
$holder->lockSemaphore($sem, 2, 5000);
foreach ([[$ex, 0], [$sh, 0], [$sem, 2], [rt_key('free'), 0]] as [$key, $limit]) {
    $i = $reader->inspect($key, $limit);
    echo var_export($i['held'], true), ' ', $i['kind'] ?? 'null', ' ', $i['holders'], "\n";
}
var_dump($reader->isLocked($ex));
var_dump(array_filter($reader->getLastErrors(), fn ($e) => $e !== null && str_contains((string) $e, 'NOPERM')));
foreach ($ports as $p) {
    rt_redis($p, 'ACL', 'DELUSER', 'i534');
}
?>
--EXPECT--
true exclusive 1
true shared 1
true semaphore 1
false null 0
bool(true)
array(0) {
}
