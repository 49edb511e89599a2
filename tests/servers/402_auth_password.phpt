--TEST--
requirepass server: password via URI and keyed array locks; a wrong one fails the vote with the server's WRONGPASS text; no password ever appears in any output
--EXTENSIONS--
redlock
--FILE--
<?php
require __DIR__ . '/../inc/redlock_test.inc';
$srv = rt_spawn_server();
$port = $srv['port'];
rt_redis($port, 'PING'); // our helper's link stays authenticated after requirepass is set
var_dump(rt_redis($port, 'CONFIG', 'SET', 'requirepass', 's3cret'));
$key = rt_key();
$seen = '';

$byUri = new RedLock(["redis://:s3cret@127.0.0.1:$port?timeout=1"], 10, 1);
$lock = $byUri->lock($key, 10000);
var_dump($lock !== false, rt_redis($port, 'GET', $key) === $lock['token'], $byUri->getLastErrors());
var_dump($byUri->unlock($lock), rt_redis($port, 'GET', $key));

$byArray = new RedLock([['host' => '127.0.0.1', 'port' => $port, 'password' => 's3cret', 'timeout' => 1]], 10, 1);
$lock = $byArray->lock($key, 10000);
var_dump($lock !== false, $byArray->unlock($lock));

// Pipelined behind the failing AUTH the SET only gets NOAUTH: the reported error is the AUTH one.
$wrong = new RedLock(["redis://:Wr0ngPass@127.0.0.1:$port"], 10, 2);
var_dump($wrong->lock($key, 10000));
$errors = $wrong->getLastErrors();
var_dump(count($errors), str_starts_with($errors[0], 'WRONGPASS'));
echo $errors[0], "\n";
var_dump(rt_redis($port, 'GET', $key));

$none = new RedLock([['127.0.0.1', $port, 1.0]], 10, 1);
var_dump($none->lock($key, 10000));
echo $none->getLastErrors()[0], "\n";

ob_start();
var_dump($byUri, $byArray, $wrong);
print_r($byUri);
var_export($byArray);
debug_zval_dump($wrong);
echo json_encode($byUri), serialize((array) $wrong), print_r($wrong->getLastErrors(), true);
try { serialize($byUri); } catch (Exception $e) { echo $e->getMessage(); }
try { new RedLock(["redis://:s3cret@127.0.0.1:$port", 'redis://:Wr0ngPass@127.0.0.1:0']); } catch (ValueError $e) { echo $e->getMessage(); }
try { new RedLock([['host' => '127.0.0.1', 'password' => 's3cret', 'bad' => 1]]); } catch (ValueError $e) { echo $e->getMessage(); }
phpinfo(INFO_MODULES);
$seen = ob_get_clean();
var_dump(str_contains($seen, 's3cret'), str_contains($seen, 'Wr0ngPass'), str_contains($seen, "127.0.0.1:$port/0"));
?>
--EXPECT--
string(2) "OK"
bool(true)
bool(true)
array(1) {
  [0]=>
  NULL
}
bool(true)
NULL
bool(true)
bool(true)
bool(false)
int(1)
bool(true)
WRONGPASS invalid username-password pair or user is disabled.
NULL
bool(false)
NOAUTH Authentication required.
bool(false)
bool(false)
bool(true)
