--TEST--
fair waiting with every other option and lock kind: refused combinations are a ValueError naming "fair" and the other option or call (no waitTimeout, waitTimeout 0, scripts off, fencing, a minority quorum; several resources, lockShared(), promote()), nothing sent for them; accepted: lockSemaphore() (taken and released, its queue left empty), autoExtend (the lock outlives its ttl, and its release still hands over), run(), prefix, onLoss, demote()
--EXTENSIONS--
redlock
pcntl
posix
--FILE--
<?php
require __DIR__ . '/../inc/fair.inc';
$s = rt_servers(5, 1.0);
$key = rt_key();
$construct = [
    'no waitTimeout' => ['fair' => true],
    'waitTimeout 0' => ['fair' => true, 'waitTimeout' => 0],
    'waitTimeout null' => ['fair' => true, 'waitTimeout' => null],
    'scripts off' => ['fair' => true, 'waitTimeout' => 1000, 'scripts' => false],
    'fencing' => ['fair' => true, 'waitTimeout' => 1000, 'fencing' => true],
    'quorum 2 of 5' => ['fair' => true, 'waitTimeout' => 1000, 'quorum' => 2],
];
foreach ($construct as $name => $options) {
    echo str_pad($name, 18), rt_throws(fn () => new RedLock($s, 200, 3, $options)), "\n";
}
$fair = fr_object(2000);
$plain = new RedLock($s);
$shared = $plain->lockShared("$key-s", 5000);
$calls = [
    'lock(list)' => fn () => $fair->lock(["$key-a", "$key-b"], 1000),
    'lock(list of 1)' => fn () => $fair->lock(["$key-a"], 1000),
    'run(list)' => fn () => $fair->run(["$key-a", "$key-b"], 1000, fn () => 1),
    'lockShared' => fn () => $fair->lockShared("$key-a", 1000),
    'promote' => fn () => $fair->promote($shared, 1000),
];
foreach ($calls as $name => $call) {
    echo str_pad($name, 18), rt_throws($call), "\n";
}
var_dump($plain->unlock($shared));
echo 'nothing sent for them: ', json_encode(rt_values("$key-a")), "\n";

// autoExtend: the lock outlives its ttl; its release hands over to the queued waiter
$log = sys_get_temp_dir() . '/redlock-613-' . getmypid();
@unlink($log);
$renewing = fr_object(4000, ['autoExtend' => true, 'prefix' => 'p:', 'onLoss' => function ($l, $why) { echo "lost: $why\n"; }]);
$ttl = (int) (300 * rt_time_scale()); // renewed every ttl/3: under valgrind the waiter takes seconds to queue
$lock = $renewing->lock($key, $ttl);
$waiter = fr_spawn("p:$key", 'waiter', $log);
fr_until_waiters($renewing, $key, 1);
usleep($ttl * 2300); // more than twice the ttl
echo 'still valid after twice its ttl: ', var_export($renewing->validity($lock) > 0, true), "\n";
var_dump($renewing->unlock($lock));
pcntl_waitpid($waiter, $status);
echo 'log: ', implode(' ', array_map(fn ($e) => $e[0] . ':' . $e[1], fr_log($log))), "\n";
@unlink($log);

// lockSemaphore(): queued (an uncontended one takes a slot at once), released, nothing left queued
$slot = $fair->lockSemaphore("$key-m", 2, 2000);
echo 'lockSemaphore: ', var_export(is_array($slot) && $slot['limit'] === 2, true), ', waiters ', fr_sem_waiters($fair, "$key-m", 2), "\n";
var_dump($fair->unlock($slot));

// run() and demote()
echo 'run: ', $fair->run($key, 1000, fn () => 'ran'), "\n";
$lock = $fair->lock($key, 2000);
$read = $fair->demote($lock, 2000);
echo 'demote: ', var_export(is_array($read) && !empty($read['shared']), true), "\n";
var_dump($fair->unlock($read));
?>
--EXPECT--
no waitTimeout    ValueError: RedLock::__construct(): Argument #4 ($options) option "fair" needs "waitTimeout" > 0 (ms to wait in the queue)
waitTimeout 0     ValueError: RedLock::__construct(): Argument #4 ($options) option "fair" needs "waitTimeout" > 0 (ms to wait in the queue)
waitTimeout null  ValueError: RedLock::__construct(): Argument #4 ($options) option "fair" needs "waitTimeout" > 0 (ms to wait in the queue)
scripts off       ValueError: RedLock::__construct(): Argument #4 ($options) option "fair" needs scripts on the servers, which "scripts" => false forbids
fencing           ValueError: RedLock::__construct(): Argument #4 ($options) option "fair" cannot be combined with "fencing" (docs/guide/fair.md)
quorum 2 of 5     ValueError: RedLock::__construct(): Argument #4 ($options) option "fair" needs "quorum" to be a strict majority of the servers
lock(list)        ValueError: RedLock::lock(): Argument #1 ($resource) cannot be queued by option "fair": lock() with "fair" takes one resource with lock(), run() or lockSemaphore(), not a list of resources (docs/guide/fair.md)
lock(list of 1)   ValueError: RedLock::lock(): Argument #1 ($resource) cannot be queued by option "fair": lock() with "fair" takes one resource with lock(), run() or lockSemaphore(), not a list of resources (docs/guide/fair.md)
run(list)         ValueError: RedLock::run(): Argument #1 ($resource) cannot be queued by option "fair": run() with "fair" takes one resource with lock(), run() or lockSemaphore(), not a list of resources (docs/guide/fair.md)
lockShared        ValueError: RedLock::lockShared(): Argument #1 ($resource) cannot be queued by option "fair": lockShared() with "fair" takes one resource with lock(), run() or lockSemaphore(), not lockShared() (docs/guide/fair.md)
promote           ValueError: RedLock::promote(): Argument #1 ($lock) cannot be queued by option "fair": promote() with "fair" takes one resource with lock(), run() or lockSemaphore(), not promote() (docs/guide/fair.md)
bool(true)
nothing sent for them: [null,null,null,null,null]
still valid after twice its ttl: true
bool(true)
log: waiter:got
lockSemaphore: true, waiters 0
bool(true)
run: ran
demote: true
bool(true)
