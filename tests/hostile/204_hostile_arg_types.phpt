--TEST--
Hostile input: objects, arrays, null, floats, resources in every argument position (strict types: TypeError)
--EXTENSIONS--
redlock
--FILE--
<?php
declare(strict_types=1);
require __DIR__ . '/../inc/reliability.inc';
$servers = rt_servers(3, 5.0);
$redlock = new RedLock($servers);
$lockArray = ['resource' => rt_key(), 'token' => str_repeat('a', 32)];
$values = [
    'null' => null, 'object' => new stdClass(), 'array' => [1], 'float' => 1.5, 'string' => '10',
    'bool' => true, 'closure' => fn () => 1, 'resource' => STDIN, 'int' => 7,
];
$calls = [
    '__construct #1' => fn ($v) => new RedLock($v),
    '__construct #2' => fn ($v) => new RedLock($servers, $v),
    '__construct #3' => fn ($v) => new RedLock($servers, 10, $v),
    'lock #1' => fn ($v) => $redlock->lock($v, 1000),
    'lock #2' => fn ($v) => $redlock->lock(rt_key(), $v),
    'unlock #1' => fn ($v) => $redlock->unlock($v),
];
$expectedOk = ['__construct #2' => ['int'], '__construct #3' => ['int'], 'lock #2' => ['int'], 'lock #1' => ['string']];
$unexpected = 0;
foreach ($calls as $call => $fn) {
    $types = [];
    foreach ($values as $label => $value) {
        try {
            $result = $fn($value);
            if (is_array($result)) {
                $redlock->unlock($result);
            }
            $types[] = "$label:ok";
            if (!in_array($label, $expectedOk[$call] ?? [], true)) {
                $unexpected++;
            }
        } catch (TypeError $e) {
            $types[] = "$label:TypeError";
        } catch (ValueError $e) {
            $types[] = "$label:ValueError";
        }
    }
    echo "$call: ", implode(' ', $types), "\n";
}
echo "unexpected successes: $unexpected\n";

echo "messages name the argument\n";
foreach (['__construct #2', 'lock #1', 'unlock #1'] as $call) {
    try {
        $calls[$call](new stdClass());
    } catch (TypeError $e) {
        echo $e->getMessage(), "\n";
    }
}
echo "too few / too many arguments\n";
foreach ([fn () => new RedLock(), fn () => $redlock->lock('k'), fn () => $redlock->unlock(),
    fn () => $redlock->lock('k', 1, 2), fn () => new RedLock($servers, 1, 2, [], 3)] as $fn) {
    try {
        $fn();
    } catch (ArgumentCountError $e) {
        echo $e->getMessage(), "\n";
    }
}
?>
--EXPECT--
__construct #1: null:TypeError object:TypeError array:TypeError float:TypeError string:TypeError bool:TypeError closure:TypeError resource:TypeError int:TypeError
__construct #2: null:TypeError object:TypeError array:TypeError float:TypeError string:TypeError bool:TypeError closure:TypeError resource:TypeError int:ok
__construct #3: null:TypeError object:TypeError array:TypeError float:TypeError string:TypeError bool:TypeError closure:TypeError resource:TypeError int:ok
lock #1: null:TypeError object:TypeError array:TypeError float:TypeError string:ok bool:TypeError closure:TypeError resource:TypeError int:TypeError
lock #2: null:TypeError object:TypeError array:TypeError float:TypeError string:TypeError bool:TypeError closure:TypeError resource:TypeError int:ok
unlock #1: null:TypeError object:TypeError array:ValueError float:TypeError string:TypeError bool:TypeError closure:TypeError resource:TypeError int:TypeError
unexpected successes: 0
messages name the argument
RedLock::__construct(): Argument #2 ($retryDelay) must be of type int, stdClass given
RedLock::lock(): Argument #1 ($resource) must be of type array|string, stdClass given
RedLock::unlock(): Argument #1 ($lock) must be of type array, stdClass given
too few / too many arguments
RedLock::__construct() expects at least 1 argument, 0 given
RedLock::lock() expects exactly 2 arguments, 1 given
RedLock::unlock() expects exactly 1 argument, 0 given
RedLock::lock() expects exactly 2 arguments, 3 given
RedLock::__construct() expects at most 4 arguments, 5 given
