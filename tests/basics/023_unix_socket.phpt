--TEST--
A server on a unix socket, given as [path, 0, timeout], works alongside TCP servers
--EXTENSIONS--
redlock
--FILE--
<?php
require __DIR__ . '/../inc/redlock_test.inc';
$path = sys_get_temp_dir() . '/redlock-test-' . getmypid() . '-' . bin2hex(random_bytes(3)) . '.sock';
register_shutdown_function(fn () => @unlink($path));
$server = rt_spawn_server(['--unixsocket', $path, '--unixsocketperm', '700', '--port', '0']);

/** GET over the unix socket. */
function unix_get(string $path, string $key): ?string
{
    $link = stream_socket_client("unix://$path", $errno, $errstr, 2.0);
    fwrite($link, "*2\r\n$3\r\nGET\r\n$" . strlen($key) . "\r\n$key\r\n");
    $reply = rt_read_reply($link);
    fclose($link);
    return $reply;
}

$key = rt_key();
$only = new RedLock([[$path, 0, 2.0]], 10, 1);
$lock = $only->lock($key, 10000);
var_dump(is_array($lock), unix_get($path, $key) === $lock['token']);
var_dump((new RedLock([[$path, 0, 2.0]], 10, 1))->lock($key, 10000));
var_dump($only->unlock($lock), unix_get($path, $key));

// Mixed with two TCP servers; the socket is one vote of three.
$mixed = new RedLock(array_merge([[$path, 0, 2.0]], rt_servers(2, 2.0)), 10, 1);
$key2 = rt_key('mixed');
$lock = $mixed->lock($key2, 10000);
var_dump(is_array($lock));
var_dump(rt_eventually(fn () => unix_get($path, $key2) === $lock['token'] && rt_values_are($key2, [$lock['token'], $lock['token']], 2)));
var_dump($mixed->unlock($lock));
var_dump(rt_eventually(fn () => unix_get($path, $key2) === null && rt_values_are($key2, [null, null], 2)));

// A socket path with nothing behind it counts as one dead server, not an error.
$dead = new RedLock([[$path . '.missing', 0, 1.0]], 10, 1);
var_dump($dead->lock($key, 10000));
?>
--EXPECT--
bool(true)
bool(true)
bool(false)
bool(true)
NULL
bool(true)
bool(true)
bool(true)
bool(true)
bool(false)
