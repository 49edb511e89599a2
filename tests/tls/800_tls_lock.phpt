--TEST--
TLS: lock, extend, validity and unlock over 5 TLS-only redis-servers (rediss:// URIs) and over 3 (keyed arrays with 'tls'), with AUTH inside TLS; the keys are where a TLS client sees them
--EXTENSIONS--
redlock
--FILE--
<?php
require __DIR__ . '/../inc/tls.inc';
$certs = tls_certs();
$password = 'tls-' . bin2hex(random_bytes(6));
$servers = [];
for ($i = 0; $i < 5; $i++) {
    $servers[] = tls_spawn(null, false, ['--requirepass', $password]);
}
$key = rt_key();
$ca = rawurlencode($certs['ca']['crt']);

// 5 servers as rediss:// URIs: the password travels inside TLS.
$uris = array_map(fn ($s) => "rediss://:$password@127.0.0.1:{$s['port']}?timeout=10&cafile=$ca", $servers);
$redlock = new RedLock($uris, 10, 1);
$shown = print_r($redlock, true);
echo str_contains($shown, $password) ? "password shown\n" : "no password shown\n";
echo preg_match_all('~rediss://127\.0\.0\.1:\d+/0~', $shown), " rediss:// servers listed\n";
$lock = $redlock->lock($key, 10000);
var_dump(is_array($lock));
// lock() returns once a majority said yes: a server still in its handshake then has our SET
// queued, to go out with the object's next call.
$holders = fn () => count(array_filter(array_map(fn ($s) => tls_cmd_auth($s['port'], $password, 'GET', $key), $servers),
    fn ($v) => $v === $lock['token']));
echo $holders() >= 3 ? "a majority holds our token\n" : $holders() . " servers hold our token\n";
$extended = $redlock->extend($lock, 20000);
var_dump(is_array($extended), $redlock->validity($lock) > 10000);
var_dump($redlock->unlock($lock));
$left = fn () => count(array_filter(array_map(fn ($s) => tls_cmd_auth($s['port'], $password, 'GET', $key), $servers)));
rt_eventually(fn () => $left() === 0, 5.0); // unlock() too returns once a majority answered
echo $left(), " keys left\n";
// A second client is excluded while we hold it.
$lock = $redlock->lock($key, 10000);
$other = new RedLock($uris, 10, 1);
var_dump($other->lock($key, 10000));
$errors = $other->getLastErrors();
echo count(array_filter($errors, fn ($e) => $e === 'taken')) >= 3 ? "a majority said taken\n" : json_encode($errors) . "\n";
echo count(array_filter($errors, fn ($e) => $e !== 'taken' && $e !== 'no reply needed')), " other errors\n";
var_dump($redlock->unlock($lock));

// 3 servers as keyed arrays with a 'tls' entry.
$keyed = array_map(fn ($s) => tls_server($s, [], ['password' => $password]), array_slice($servers, 0, 3));
$redlock = new RedLock($keyed, 10, 1);
$lock = $redlock->lock("$key-3", 10000);
var_dump(is_array($lock), count(array_filter($redlock->getLastErrors(), fn ($e) => $e === null)) >= 2, $redlock->unlock($lock));

function tls_cmd_auth(int $port, string $password, string ...$args): mixed
{
    // One connection: AUTH then the command (tls_cmd opens a connection per command).
    $certs = tls_certs();
    $context = stream_context_create(['ssl' => ['cafile' => $certs['ca']['crt'], 'peer_name' => 'localhost']]);
    $link = stream_socket_client("tls://127.0.0.1:$port", $errno, $errstr, 5.0, STREAM_CLIENT_CONNECT, $context);
    foreach ([['AUTH', $password], $args] as $command) {
        $out = '*' . count($command) . "\r\n";
        foreach ($command as $a) {
            $out .= '$' . strlen($a) . "\r\n" . $a . "\r\n";
        }
        fwrite($link, $out);
        $reply = rt_read_reply($link);
    }
    fclose($link);
    return $reply;
}
?>
--EXPECT--
no password shown
5 rediss:// servers listed
bool(true)
a majority holds our token
bool(true)
bool(true)
bool(true)
0 keys left
bool(false)
a majority said taken
0 other errors
bool(true)
bool(true)
bool(true)
bool(true)
