--TEST--
var_dump()/print_r() show the servers without credentials, keep a subclass' own properties, and show nothing for an uninitialized object
--EXTENSIONS--
redlock
--FILE--
<?php
class AppLock extends RedLock
{
    public string $name = 'billing';
}
class Lazy extends RedLock
{
    public function __construct() {}
}
$lock = new AppLock([
    'redis://bob:Hunter2pw@127.0.0.1:6379/4',
    ['host' => '/tmp/r.sock', 'username' => 'bob', 'password' => 'Hunter2pw', 'database' => 1],
    ['::1', 6380, 0.5],
]);
ob_start();
var_dump($lock);
print_r($lock);
var_dump(new Lazy());
$out = ob_get_clean();
echo $out;
var_dump(str_contains($out, 'Hunter2pw'), str_contains($out, 'bob'));
?>
--EXPECTF--
object(AppLock)#%d (2) {
  ["name"]=>
  string(7) "billing"
  ["servers"]=>
  array(3) {
    [0]=>
    string(24) "redis://127.0.0.1:6379/4"
    [1]=>
    string(23) "unix:///tmp/r.sock?db=1"
    [2]=>
    string(20) "redis://[::1]:6380/0"
  }
}
AppLock Object
(
    [name] => billing
    [servers] => Array
        (
            [0] => redis://127.0.0.1:6379/4
            [1] => unix:///tmp/r.sock?db=1
            [2] => redis://[::1]:6380/0
        )

)
object(Lazy)#%d (0) {
}
bool(false)
bool(false)
