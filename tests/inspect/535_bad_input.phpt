--TEST--
inspect() and isLocked() refuse bad input naming the argument (issue 26, item 4): an empty resource, an empty list, a list with a non-string, a negative limit, a limit over 1024, an object; a float is a string as PHP coerces it; 1024 slots are read
--EXTENSIONS--
redlock
--SKIPIF--
<?php if (PHP_OS_FAMILY === 'Windows') die('skip memory:// needs unix sockets'); ?>
--FILE--
<?php
$r = new RedLock(['memory://i535a', 'memory://i535b', 'memory://i535c'], 0, 1);
foreach ([
    fn () => $r->inspect(''),
    fn () => $r->inspect([]),
    fn () => $r->inspect(['a', 1]),
    fn () => $r->inspect('a', -1),
    fn () => $r->inspect('a', 1025),
    fn () => $r->inspect(new stdClass()),
    fn () => $r->isLocked(''),
    fn () => $r->isLocked(1.5),
] as $call) {
    try {
        var_dump($call());
    } catch (Throwable $e) {
        echo get_class($e), ': ', $e->getMessage(), "\n";
    }
}
var_dump($r->inspect('a', 1024)['held']);
?>
--EXPECTF--
ValueError: RedLock::inspect(): Argument #1 ($resource) %s
ValueError: RedLock::inspect(): Argument #1 ($resource) %s
%rValueError|TypeError%r: RedLock::inspect(): Argument #1 ($resource) %s
ValueError: RedLock::inspect(): Argument #2 ($limit) must be between 0 and 1024
ValueError: RedLock::inspect(): Argument #2 ($limit) must be between 0 and 1024
TypeError: RedLock::inspect(): Argument #1 ($resource) must be of type array|string, stdClass given
ValueError: RedLock::isLocked(): Argument #1 ($resource) %s
bool(false)
bool(false)
