--TEST--
Hostile input: methods on an object whose constructor threw or never ran (Error); clone (Error); serialize/unserialize (Exception); var_dump/print_r show the servers without credentials; var_export/json/array cast show nothing
--EXTENSIONS--
redlock
--FILE--
<?php
require __DIR__ . '/../inc/reliability.inc';
function attempt(string $label, callable $fn): void
{
    try {
        $result = $fn();
        echo "$label: returned ", get_debug_type($result), "\n";
    } catch (Throwable $e) {
        echo "$label: ", get_class($e), ": ", $e->getMessage(), "\n";
    }
}

class ThrowsFirst extends RedLock
{
    public static ?ThrowsFirst $escaped = null;
    public function __construct()
    {
        self::$escaped = $this;
        throw new RuntimeException('constructor failed');
    }
}
class SkipsParent extends RedLock
{
    public function __construct()
    {
    }
}
class BadParentArgs extends RedLock
{
    public static ?BadParentArgs $escaped = null;
    public function __construct()
    {
        self::$escaped = $this;
        parent::__construct([['127.0.0.1', 0]]);
    }
}

attempt('constructor threw', fn () => new ThrowsFirst());
attempt('  lock', fn () => ThrowsFirst::$escaped->lock('k', 1000));
attempt('  unlock', fn () => ThrowsFirst::$escaped->unlock(['resource' => 'k', 'token' => 't']));
attempt('parent never called', fn () => (new SkipsParent())->lock('k', 1000));
attempt('parent threw', fn () => new BadParentArgs());
attempt('  lock', fn () => BadParentArgs::$escaped->lock('k', 1000));
attempt('no constructor (reflection)', fn () => (new ReflectionClass(RedLock::class))->newInstanceWithoutConstructor()->lock('k', 1000));

$redlock = new RedLock(['redis://alice:hunter2@127.0.0.1:6379/2', ['host' => '/tmp/some.sock', 'password' => 'hunter3']]);
attempt('clone', fn () => clone $redlock);
attempt('serialize', fn () => serialize($redlock));
attempt('unserialize', fn () => unserialize('O:7:"RedLock":0:{}'));
attempt('unserialize subclass', fn () => unserialize('O:11:"SkipsParent":0:{}'));
var_dump($redlock);
print_r($redlock);
echo "\n";
var_export($redlock);
echo "\n", json_encode($redlock), "\n";
var_dump((array) $redlock, get_object_vars($redlock));
ob_start();
debug_zval_dump($redlock);
$dump = ob_get_clean();
var_dump(str_contains($dump, '6379'), !str_contains($dump, 'hunter'), !str_contains($dump, 'alice'));
var_dump((new ReflectionClass(RedLock::class))->getProperties());
?>
--EXPECTF--
constructor threw: RuntimeException: constructor failed
  lock: Error: ThrowsFirst object is not initialized: its constructor did not run or failed
  unlock: Error: ThrowsFirst object is not initialized: its constructor did not run or failed
parent never called: Error: SkipsParent object is not initialized: its constructor did not run or failed
parent threw: ValueError: RedLock::__construct(): Argument #1 ($servers) server #0 port must be between 1 and 65535
  lock: Error: BadParentArgs object is not initialized: its constructor did not run or failed
no constructor (reflection): Error: RedLock object is not initialized: its constructor did not run or failed
clone: Error: Trying to clone an uncloneable object of class RedLock
serialize: Exception: Serialization of 'RedLock' is not allowed
unserialize: Exception: Unserialization of 'RedLock' is not allowed
unserialize subclass: Exception: Unserialization of 'SkipsParent' is not allowed
object(RedLock)#%d (1) {
  ["servers"]=>
  array(2) {
    [0]=>
    string(24) "redis://127.0.0.1:6379/2"
    [1]=>
    string(26) "unix:///tmp/some.sock?db=0"
  }
}
RedLock Object
(
    [servers] => Array
        (
            [0] => redis://127.0.0.1:6379/2
            [1] => unix:///tmp/some.sock?db=0
        )

)

\RedLock::__set_state(array(
))
{}
array(0) {
}
array(0) {
}
bool(true)
bool(true)
bool(true)
array(0) {
}
