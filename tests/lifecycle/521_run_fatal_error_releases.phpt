--TEST--
run(): a fatal error inside $fn (E_USER_ERROR) still releases the lock at once; shutdown functions see it gone and can lock again
--EXTENSIONS--
redlock
--INI--
display_errors=1
error_reporting=E_ALL & ~E_DEPRECATED
--ENV--
ASAN_OPTIONS=verify_asan_link_order=0:detect_leaks=0:abort_on_error=0:exitcode=86
--FILE--
<?php
/* --ENV--: under scripts/sanitize.sh (USE_ZEND_ALLOC=0) LeakSanitizer reports what PHP itself leaves
 * allocated behind a fatal error (the frames it bailed out of, $fn's holding the lock array);
 * run() frees its own values in zend_catch. The other sanitizers stay on. */
require __DIR__ . '/../inc/redlock_test.inc';
$key = rt_key();
$r = new RedLock(rt_servers(5, 3.0), 10, 1);

register_shutdown_function(function () use ($key, $r) {
    // Runs after the fatal error: the key is already gone from every server (ttl 60 s).
    // (unlock returns once a majority answered: the others' DELs may land a moment later)
    rt_eventually(fn () => count(array_filter(rt_values($key), fn ($v) => $v === null)) === 5);
    $values = rt_values($key);
    echo 'after the fatal error: ', count(array_filter($values, fn ($v) => $v === null)), " of 5 released\n";
    // The object is consistent: no run() in progress any more, and it still locks.
    $lock = $r->lock($key, 60000);
    var_dump(is_array($lock) && $r->unlock($lock));
    var_dump($r->run($key, 60000, fn () => 'again'), rt_values_are($key, array_fill(0, 5, null)));
});

$r->run($key, 60000, function (array $lock) use ($key) {
    echo 'held on ', count(array_filter(rt_values($key), fn ($v) => $v === $lock['token'])), " of 5\n";
    trigger_error('the work failed', E_USER_ERROR);
    echo "not reached\n";
});
echo "not reached either\n";
?>
--EXPECTF--
held on 5 of 5

Fatal error: the work failed in %s on line %d
after the fatal error: 5 of 5 released
bool(true)
string(5) "again"
bool(true)
