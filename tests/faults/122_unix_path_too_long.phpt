--TEST--
A unix socket path of 108 bytes or more is refused with a clear error, never cut to 107 bytes (which could reach another server's socket)
--EXTENSIONS--
redlock
--FILE--
<?php
require __DIR__ . '/../inc/redlock_test.inc';
// A real server on a path of exactly 107 bytes (the most sun_path holds), and a longer path that
// starts with it: cut to 107 bytes, the longer one would reach that server.
$dir = sys_get_temp_dir() . '/rl122-' . getmypid();
@mkdir($dir, 0700);
$short = $dir . '/' . str_repeat('s', 107 - strlen($dir) - 1);
$srv = rt_spawn_server(['--port', '0', '--unixsocket', $short, '--unixsocketperm', '700']);
var_dump(strlen($short));
$long = $short . '-another-server.sock';
$key = rt_key();

$r = new RedLock([[$long, 0, 0.5]], 10, 1);
var_dump($r->lock($key, 10000), $r->getLastErrors());
// The 107-byte path itself works.
$ok = new RedLock([[$short, 0, 0.5]], 10, 1);
$lock = $ok->lock($key, 10000);
var_dump(is_array($lock), $ok->unlock($lock));
rt_stop_server($srv);
@unlink($short);
@rmdir($dir);
?>
--EXPECT--
int(107)
bool(false)
array(1) {
  [0]=>
  string(34) "connect: unix socket path too long"
}
bool(true)
bool(true)
