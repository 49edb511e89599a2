--TEST--
Bad retry settings, ttl, resource and unlock() array: ValueError/TypeError naming the argument
--EXTENSIONS--
redlock
--FILE--
<?php
$servers = [['127.0.0.1', 6379, 0.5]]; // never contacted: every call below fails its checks first
$redlock = new RedLock($servers);
$cases = [
    'negative retryDelay' => fn () => new RedLock($servers, -1),
    'negative retryCount' => fn () => new RedLock($servers, 200, -1),
    'ttl 0' => fn () => $redlock->lock('resource', 0),
    'ttl -5' => fn () => $redlock->lock('resource', -5),
    'empty resource' => fn () => $redlock->lock('', 1000),
    'unlock without resource' => fn () => $redlock->unlock(['token' => 'abc']),
    'unlock without token' => fn () => $redlock->unlock(['resource' => 'r']),
    'unlock with int resource' => fn () => $redlock->unlock(['resource' => 42, 'token' => 'abc']),
    'unlock with null token' => fn () => $redlock->unlock(['resource' => 'r', 'token' => null]),
    'unlock with array token' => fn () => $redlock->unlock(['resource' => 'r', 'token' => []]),
    'unlock with empty token' => fn () => $redlock->unlock(['resource' => 'r', 'token' => '']),
    'unlock of a non-array' => fn () => $redlock->unlock('r'),
];
foreach ($cases as $name => $call) {
    try {
        $call();
        echo "$name: accepted\n";
    } catch (Throwable $e) {
        echo "$name: ", get_class($e), ": ", $e->getMessage(), "\n";
    }
}
?>
--EXPECT--
negative retryDelay: ValueError: RedLock::__construct(): Argument #2 ($retryDelay) must be between 0 and 3600000 (ms, one hour)
negative retryCount: ValueError: RedLock::__construct(): Argument #3 ($retryCount) must be between 0 and 1000000 (attempts; waitTimeout waits longer)
ttl 0: ValueError: RedLock::lock(): Argument #2 ($ttl) must be greater than 0
ttl -5: ValueError: RedLock::lock(): Argument #2 ($ttl) must be greater than 0
empty resource: ValueError: RedLock::lock(): Argument #1 ($resource) must not be empty
unlock without resource: ValueError: RedLock::unlock(): Argument #1 ($lock) must contain the key "resource"
unlock without token: ValueError: RedLock::unlock(): Argument #1 ($lock) must contain the key "token"
unlock with int resource: TypeError: RedLock::unlock(): Argument #1 ($lock) ["resource"] must be of type array|string, int given
unlock with null token: TypeError: RedLock::unlock(): Argument #1 ($lock) ["token"] must be of type string, null given
unlock with array token: TypeError: RedLock::unlock(): Argument #1 ($lock) ["token"] must be of type string, array given
unlock with empty token: ValueError: RedLock::unlock(): Argument #1 ($lock) ["token"] must not be empty
unlock of a non-array: TypeError: RedLock::unlock(): Argument #1 ($lock) must be of type array, string given
