--TEST--
$servers is a #[\SensitiveParameter]: passwords never reach exception traces, getTraceAsString() or debug_print_backtrace()
--EXTENSIONS--
redlock
--INI--
zend.exception_ignore_args=0
error_reporting=-1
--FILE--
<?php
require __DIR__ . '/../inc/redlock_test.inc';
[[$host, $port]] = rt_endpoints();
$secret = 'pw-' . bin2hex(random_bytes(8));
// Server #0 carries a password; server #1 has a bad port, so the constructor throws after reading #0.
$servers = [
    ['host' => $host, 'port' => $port, 'username' => 'alice', 'password' => $secret],
    "redis://:$secret@$host:$port/1",
    [$host, 70000, 0.5],
];
$leaks = function (string $where, string $text) use ($secret) {
    echo $where, ': ', str_contains($text, $secret) ? 'LEAKS THE PASSWORD' : 'no password', "\n";
};
try {
    new RedLock($servers, 10, 1);
} catch (ValueError $e) {
    echo $e->getMessage(), "\n";
    $frame = $e->getTrace()[0];
    echo $frame['class'], $frame['type'], $frame['function'], ': ', get_debug_type($frame['args'][0]), "\n";
    var_dump($frame['args'][0] instanceof SensitiveParameterValue && $frame['args'][0]->getValue() === $servers, count($frame['args']));
    // What error trackers serialise: the trace as data, as text, and the exception as a string.
    $leaks('getTrace()', var_export(array_map(fn ($f) => array_map(fn ($a) => $a instanceof SensitiveParameterValue ? 'hidden' : $a, $f['args'] ?? []), $e->getTrace()), true) . print_r($e->getTrace(), true));
    $leaks('getTraceAsString()', $e->getTraceAsString());
    $leaks('(string) $e', (string) $e);
    echo explode("\n", $e->getTraceAsString())[0], "\n";
}

// From inside the constructor: a deprecation in its argument parsing calls the error handler while
// RedLock::__construct() is on the stack (null for the int $retryDelay).
set_error_handler(function (int $type, string $message) use ($leaks) {
    echo $message, "\n";
    ob_start();
    debug_print_backtrace();
    $printed = ob_get_clean();
    $leaks('debug_print_backtrace()', $printed);
    echo trim(explode("\n", $printed)[1]), "\n";
    $leaks('debug_backtrace()', print_r(debug_backtrace(), true));
    $leaks('new Exception inside', (new Exception())->getTraceAsString());
    return true;
});
$r = new RedLock([$servers[0]], null, 1);
restore_error_handler();
var_dump($r->lock(rt_key(), 1000));
echo implode(' ', $r->getLastErrors()), "\n";
?>
--EXPECTF--
RedLock::__construct(): Argument #1 ($servers) server #2 port must be between 1 and 65535
RedLock->__construct: SensitiveParameterValue
bool(true)
int(3)
getTrace(): no password
getTraceAsString(): no password
(string) $e: no password
#0 %s(%d): RedLock->__construct(Object(SensitiveParameterValue), 10, 1)
RedLock::__construct(): Passing null to parameter #2 ($retryDelay) of type int is deprecated
debug_print_backtrace(): no password
#1 %s(%d): RedLock->__construct(Object(SensitiveParameterValue), NULL, 1)
debug_backtrace(): no password
new Exception inside: no password
bool(false)
WRONGPASS invalid username-password pair or user is disabled.
