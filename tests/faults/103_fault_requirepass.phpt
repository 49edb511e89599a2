--TEST--
Fault: a server that requires a password we do not send answers NOAUTH: a failed vote, no exception, no warning
--EXTENSIONS--
redlock
--FILE--
<?php
require __DIR__ . '/../inc/reliability.inc';
$auth = rt_spawn_server(['--requirepass', 'sekret']);
$a = rt_spawn_server();
$b = rt_spawn_server();
$key = rt_key();

echo "the error the server really gives\n";
$reply = rf_cmd($auth['port'], 'SET', $key, 'x', 'NX', 'PX', '1000');
var_dump($reply instanceof RuntimeException && str_starts_with($reply->getMessage(), 'NOAUTH'));

echo "1 of 1: false\n";
$one = new RedLock(rf_list([$auth['port']]), 10, 2);
[$lock, $ms] = rt_timed(fn () => $one->lock($key, 10000));
var_dump($lock, $ms < 2000);
var_dump($one->unlock(['resource' => $key, 'token' => str_repeat('a', 32)]));

echo "2 of 3: the two others carry the quorum\n";
$three = new RedLock(rf_list([$a['port'], $auth['port'], $b['port']]), 10, 1);
$lock = $three->lock($key, 10000);
var_dump(is_array($lock));
var_dump(rf_cmd($a['port'], 'GET', $key) === $lock['token'], rf_cmd($b['port'], 'GET', $key) === $lock['token']);
var_dump($three->unlock($lock));
var_dump(rf_cmd($a['port'], 'GET', $key), rf_cmd($b['port'], 'GET', $key));

echo "nothing was written behind the password\n";
$link = rf_send_async($auth['port'], 'AUTH', 'sekret');
var_dump(rt_read_reply($link));
fwrite($link, "*2\r\n$4\r\nKEYS\r\n$1\r\n*\r\n");
var_dump(rt_read_reply($link));
?>
--EXPECT--
the error the server really gives
bool(true)
1 of 1: false
bool(false)
bool(true)
bool(false)
2 of 3: the two others carry the quorum
bool(true)
bool(true)
bool(true)
bool(true)
NULL
NULL
nothing was written behind the password
string(2) "OK"
array(0) {
}
