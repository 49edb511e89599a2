--TEST--
Observer that throws: the lock call still returns its result, the exception is swallowed and counted (observer_errors); an exception already on its way ($fn's in run()) is the one that propagates; calls the observer makes on the object are not observed; setObserver(null) inside it; bad observers are TypeErrors; a closure holding its object is collected
--EXTENSIONS--
redlock
--FILE--
<?php
require __DIR__ . '/../inc/redlock_test.inc';
$s = rt_servers(5, 1.0);
$key = rt_key();
$errors = fn () => RedLock::metrics()['observer_errors'];
$r = new RedLock($s, 10, 1);
$r->setObserver(function (array $c) { throw new RuntimeException("observer: {$c['call']}"); });
$e0 = $errors();
$lock = $r->lock($key, 5000);
echo 'lock returned ', is_array($lock) ? 'the lock array' : var_export($lock, true), "\n";
var_dump($r->unlock($lock));
echo 'observer_errors +', $errors() - $e0, "\n";
// run(): $fn's exception propagates; the observer (throwing too) is still called for the release.
$calls = [];
$r->setObserver(function (array $c) use (&$calls) { $calls[] = "{$c['call']}:{$c['outcome']}"; throw new LogicException('observer'); });
echo rt_throws(fn () => $r->run("$key:run", 5000, function () { throw new DomainException('from fn'); })), "\n";
echo implode(' ', $calls), "\n";
echo 'observer_errors +', $errors() - $e0, "\n";
// A warning-to-exception error handler cannot break the call either.
set_error_handler(function ($no, $str) { throw new ErrorException($str); });
$r->setObserver(function () { echo $undefined; });
var_dump(is_array($l = $r->lock("$key:w", 5000)) && $r->unlock($l));
restore_error_handler();
// Nested calls on the same object from inside the observer are not observed.
$n = 0;
$r->setObserver(function (array $c) use ($r, &$n, $key) {
    $n++;
    $inner = $r->lock("$key:inner", 1000);
    $r->unlock($inner);
});
$l = $r->lock("$key:n", 5000);
echo "observer calls for one lock() with nested calls: $n\n";
// setObserver(null) from inside: this call finishes, later ones are not observed.
$m = 0;
$r->setObserver(function () use ($r, &$m) { $m++; $r->setObserver(null); });
$r->unlock($l);
$r->lock("$key:m", 1000);
echo "after setObserver(null) inside: $m\n";
echo rt_throws(fn () => new RedLock($s, 10, 1, ['observer' => 'no_such_function'])), "\n";
echo rt_throws(fn () => new RedLock($s, 10, 1, ['observer' => 42])), "\n";
echo rt_throws(fn () => $r->setObserver('no_such_function')), "\n";
var_dump((new RedLock($s, 10, 1, ['observer' => null]))->lock("$key:null", 1000) !== false);
// A closure that holds its own object: the cycle is collected.
$o = new RedLock($s, 10, 1);
$o->setObserver(function () use ($o) {});
$ref = WeakReference::create($o);
unset($o);
gc_collect_cycles();
var_dump($ref->get());
?>
--EXPECT--
lock returned the lock array
bool(true)
observer_errors +2
DomainException: from fn
run:acquired run:released
observer_errors +4
bool(true)
observer calls for one lock() with nested calls: 1
after setObserver(null) inside: 1
TypeError: RedLock::__construct(): Argument #4 ($options) option "observer" must be a valid callback or null, string given
TypeError: RedLock::__construct(): Argument #4 ($options) option "observer" must be a valid callback or null, int given
TypeError: RedLock::setObserver(): Argument #1 ($observer) must be a valid callback or null, function "no_such_function" not found or invalid function name
bool(true)
NULL
