--TEST--
phpinfo(): persistent switch and pool counters, never a credential
--EXTENSIONS--
redlock
--INI--
redlock.persistent=1
--FILE--
<?php
require __DIR__ . '/../inc/redlock_test.inc';
$srv = rt_spawn_server();
$port = $srv['port'];
rt_redis($port, 'CONFIG', 'SET', 'requirepass', 'Sup3rS3cret');
$info = function () {
    ob_start();
    phpinfo(INFO_MODULES);
    return ob_get_clean();
};
var_dump(rt_pool_stats());
$r = new RedLock(["redis://admin:Sup3rS3cret@127.0.0.1:$port?timeout=5"], 10, 1);
var_dump($r->lock(rt_key(), 10000)); // no user "admin": its connection is closed, not pooled
$s = new RedLock(["redis://:Sup3rS3cret@127.0.0.1:$port/1?timeout=5"], 10, 1);
var_dump($s->unlock($s->lock(rt_key(), 10000))); // clean: pooled when freed
unset($r, $s);
$text = $info();
var_dump(rt_pool_stats()['idle'], str_contains($text, 'persistent connections => enabled'),
    str_contains($text, 'redlock.persistent => On => On'), str_contains($text, 'Sup3rS3cret'), str_contains($text, 'admin'));
ini_set('redlock.persistent', '0');
$text = $info();
var_dump(str_contains($text, 'persistent connections => disabled'), str_contains($text, 'redlock.persistent => Off => On'));
?>
--EXPECT--
array(3) {
  ["idle"]=>
  int(0)
  ["reused"]=>
  int(0)
  ["discarded"]=>
  int(0)
}
bool(false)
bool(true)
int(1)
bool(true)
bool(true)
bool(false)
bool(false)
bool(true)
bool(true)
