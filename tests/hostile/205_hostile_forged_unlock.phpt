--TEST--
Hostile input: unlock with forged, truncated, padded or malformed lock arrays: false or a clear error, never a release of someone else's lock
--EXTENSIONS--
redlock
--FILE--
<?php
require __DIR__ . '/../inc/reliability.inc';
$redlock = new RedLock(rt_servers(5, 5.0));
$key = rt_key();
$lock = $redlock->lock($key, 30000);
$token = $lock['token'];
$still = fn () => rt_values_are($key, array_fill(0, 5, $token));
var_dump($still() || rf_settled_values($key, array_fill(0, 5, $token)) === array_fill(0, 5, $token));

$forgeries = [
    'random token' => ['resource' => $key, 'token' => bin2hex(random_bytes(16))],
    'truncated token' => ['resource' => $key, 'token' => substr($token, 0, 31)],
    'token + suffix' => ['resource' => $key, 'token' => $token . 'x'],
    'token + NUL' => ['resource' => $key, 'token' => $token . "\0"],
    'upper-case token' => ['resource' => $key, 'token' => strtoupper($token) === $token ? 'X' : strtoupper($token)],
    'other resource' => ['resource' => "$key-other", 'token' => $token],
    'resource + NUL' => ['resource' => "$key\0", 'token' => $token],
    'truncated resource' => ['resource' => substr($key, 0, -1), 'token' => $token],
    '1 MiB token' => ['resource' => $key, 'token' => str_repeat('a', 1 << 20)],
    'lua injection' => ['resource' => $key, 'token' => "' or 1==1 --"],
    'other resource list' => ['resource' => ["$key-other"], 'token' => $token],
];
foreach ($forgeries as $label => $forged) {
    printf("%-18s -> %s, still held: %s\n", $label, var_export($redlock->unlock($forged), true), var_export($still(), true));
}

echo "malformed arrays\n";
$malformed = [
    'empty' => [],
    'list' => [$key, $token],
    'no token' => ['resource' => $key],
    'no resource' => ['token' => $token],
    'int token' => ['resource' => $key, 'token' => 123],
    'null token' => ['resource' => $key, 'token' => null],
    'float resource' => ['resource' => 1.5, 'token' => $token],
    'object token' => ['resource' => $key, 'token' => new stdClass()],
    'empty token' => ['resource' => $key, 'token' => ''],
    'empty resource' => ['resource' => '', 'token' => $token],
];
foreach ($malformed as $label => $bad) {
    try {
        $result = var_export($redlock->unlock($bad), true);
    } catch (Throwable $e) {
        $result = get_class($e) . ': ' . $e->getMessage();
    }
    printf("%-15s -> %s\n", $label, $result);
}
var_dump($still());

echo "the real lock, with extra keys and a reference, still releases\n";
$copy = $lock + ['extra' => new stdClass(), 0 => 'x'];
$ref = &$copy['token'];
var_dump($redlock->unlock($copy), rf_settled_values($key, array_fill(0, 5, null)) === array_fill(0, 5, null));
?>
--EXPECT--
bool(true)
random token       -> false, still held: true
truncated token    -> false, still held: true
token + suffix     -> false, still held: true
token + NUL        -> false, still held: true
upper-case token   -> false, still held: true
other resource     -> false, still held: true
resource + NUL     -> false, still held: true
truncated resource -> false, still held: true
1 MiB token        -> false, still held: true
lua injection      -> false, still held: true
other resource list -> false, still held: true
malformed arrays
empty           -> ValueError: RedLock::unlock(): Argument #1 ($lock) must contain the key "resource"
list            -> ValueError: RedLock::unlock(): Argument #1 ($lock) must contain the key "resource"
no token        -> ValueError: RedLock::unlock(): Argument #1 ($lock) must contain the key "token"
no resource     -> ValueError: RedLock::unlock(): Argument #1 ($lock) must contain the key "resource"
int token       -> TypeError: RedLock::unlock(): Argument #1 ($lock) ["token"] must be of type string, int given
null token      -> TypeError: RedLock::unlock(): Argument #1 ($lock) ["token"] must be of type string, null given
float resource  -> TypeError: RedLock::unlock(): Argument #1 ($lock) ["resource"] must be of type array|string, float given
object token    -> TypeError: RedLock::unlock(): Argument #1 ($lock) ["token"] must be of type string, stdClass given
empty token     -> ValueError: RedLock::unlock(): Argument #1 ($lock) ["token"] must not be empty
empty resource  -> ValueError: RedLock::unlock(): Argument #1 ($lock) ["resource"] must not be empty
bool(true)
the real lock, with extra keys and a reference, still releases
bool(true)
bool(true)
