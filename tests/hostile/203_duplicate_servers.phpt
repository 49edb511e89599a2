--TEST--
Hostile input: a server listed twice is a ValueError naming both entries (it could never vote twice)
--EXTENSIONS--
redlock
--FILE--
<?php
require __DIR__ . '/../inc/reliability.inc';
[$a, $b, $c] = rt_servers(3, 5.0);
$lists = [
    'exact repeat' => [$a, $b, $a],
    'other timeout' => [$a, [$a[0], $a[1], 2.5]],
    'no timeout given' => [[$a[0], $a[1]], $a],
    'host case' => [['LocalHost', 7000, 0.1], ['localhost', 7000, 0.1]],
    'unix path, port ignored' => [['/tmp/redis.sock', 0], ['/tmp/redis.sock', 6379]],
    'string keys' => ['one' => $a, 'two' => $b, 'three' => $b],
];
foreach ($lists as $label => $servers) {
    try {
        new RedLock($servers);
        echo "$label: accepted\n";
    } catch (ValueError $e) {
        echo "$label: ", $e->getMessage(), "\n";
    }
}

echo "not duplicates\n";
foreach ([[$a, $b, $c], [['127.0.0.1', 7000], ['127.0.0.2', 7000]], [['127.0.0.1', 7000], ['127.0.0.1', 7001]],
    [['/tmp/a.sock', 0], ['/tmp/b.sock', 0]]] as $servers) {
    var_dump((new RedLock($servers)) instanceof RedLock);
}

echo "the previous configuration stays: a second constructor call is refused first\n";
$redlock = new RedLock([$a, $b, $c]);
try {
    $redlock->__construct([$a, $a]);
} catch (Error $e) {
    echo get_class($e), ': ', $e->getMessage(), "\n";
}
$lock = $redlock->lock(rt_key(), 5000);
var_dump(is_array($lock), $redlock->unlock($lock));
?>
--EXPECTF--
exact repeat: RedLock::__construct(): Argument #1 ($servers) server #2 repeats server #0 (127.0.0.1 port %d): a server may vote only once
other timeout: RedLock::__construct(): Argument #1 ($servers) server #1 repeats server #0 (127.0.0.1 port %d): a server may vote only once
no timeout given: RedLock::__construct(): Argument #1 ($servers) server #1 repeats server #0 (127.0.0.1 port %d): a server may vote only once
host case: RedLock::__construct(): Argument #1 ($servers) server #1 repeats server #0 (localhost port 7000): a server may vote only once
unix path, port ignored: RedLock::__construct(): Argument #1 ($servers) server #1 repeats server #0 (/tmp/redis.sock): a server may vote only once
string keys: RedLock::__construct(): Argument #1 ($servers) server #2 repeats server #1 (127.0.0.1 port %d): a server may vote only once
not duplicates
bool(true)
bool(true)
bool(true)
bool(true)
the previous configuration stays: a second constructor call is refused first
Error: Cannot call constructor twice
bool(true)
bool(true)
