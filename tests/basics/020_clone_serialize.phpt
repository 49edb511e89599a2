--TEST--
A RedLock object cannot be cloned, serialized or unserialized
--EXTENSIONS--
redlock
--FILE--
<?php
$redlock = new RedLock([['127.0.0.1', 6379, 0.5]]);
$attempts = [
    'clone' => fn () => clone $redlock,
    'serialize' => fn () => serialize($redlock),
    'unserialize' => fn () => unserialize('O:7:"RedLock":0:{}'),
];
foreach ($attempts as $name => $attempt) {
    try {
        var_dump($attempt());
    } catch (Throwable $e) {
        echo "$name: ", get_class($e), ": ", $e->getMessage(), "\n";
    }
}
var_dump((new ReflectionClass(RedLock::class))->isCloneable());
?>
--EXPECT--
clone: Error: Trying to clone an uncloneable object of class RedLock
serialize: Exception: Serialization of 'RedLock' is not allowed
unserialize: Exception: Unserialization of 'RedLock' is not allowed
bool(false)
