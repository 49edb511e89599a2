--TEST--
Methods of an object whose constructor never ran (or failed) throw Error instead of crashing
--EXTENSIONS--
redlock
--FILE--
<?php
class NoParent extends RedLock
{
    public function __construct() {}
}

class FailedParent extends RedLock
{
    public function __construct()
    {
        try {
            parent::__construct([]);
        } catch (ValueError $e) {
            echo "constructor: ", $e->getMessage(), "\n";
        }
    }
}

foreach ([new NoParent(), new FailedParent(), (new ReflectionClass(RedLock::class))->newInstanceWithoutConstructor()] as $object) {
    foreach (['lock' => ['resource', 1000], 'unlock' => [['resource' => 'r', 'token' => 'abc']]] as $method => $args) {
        try {
            var_dump($object->$method(...$args));
        } catch (Throwable $e) {
            echo get_class($object), "::$method: ", get_class($e), ": ", $e->getMessage(), "\n";
        }
    }
}
?>
--EXPECT--
constructor: RedLock::__construct(): Argument #1 ($servers) must contain at least one server
NoParent::lock: Error: NoParent object is not initialized: its constructor did not run or failed
NoParent::unlock: Error: NoParent object is not initialized: its constructor did not run or failed
FailedParent::lock: Error: FailedParent object is not initialized: its constructor did not run or failed
FailedParent::unlock: Error: FailedParent object is not initialized: its constructor did not run or failed
RedLock::lock: Error: RedLock object is not initialized: its constructor did not run or failed
RedLock::unlock: Error: RedLock object is not initialized: its constructor did not run or failed
