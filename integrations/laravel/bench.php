<?php
/* One side of the Laravel benchmark row: N lock()->get() + release() cycles, no contention.
 *   php -d extension=modules/redlock.so integrations/laravel/bench.php redlock|redis HOST:PORT,... N
 * redlock: the 'redlock' store's lock over every server given (one RedLock, all at once);
 * redis: Laravel's own RedisLock over phpredis on the first server only (Laravel has no multi-server lock). */
foreach (['Support', 'Container', 'Cache', 'Redis'] as $component) {
    require_once "/usr/share/php/Illuminate/$component/autoload.php";
}
require_once __DIR__ . '/src/RedLocks.php';
require_once __DIR__ . '/src/RedLockLock.php';
require_once __DIR__ . '/src/RedLockStore.php';

[, $impl, $list, $n] = $argv + [null, null, null, 1000];
$servers = array_map(fn ($hp) => explode(':', $hp), explode(',', $list));
if ($impl === 'redlock') {
    $store = new RedLock\Laravel\RedLockStore(new RedLock\Laravel\RedLocks(array_map(fn ($s) => [$s[0], (int) $s[1], 1.0], $servers)));
    $lock = fn () => $store->lock('bench', 10);
} else {
    $redis = new Redis();
    $redis->connect($servers[0][0], (int) $servers[0][1], 1.0);
    $connection = new Illuminate\Redis\Connections\PhpRedisConnection($redis);
    $lock = fn () => new Illuminate\Cache\RedisLock($connection, 'bench', 10);
}
$t = microtime(true);
for ($i = 0; $i < (int) $n; $i++) {
    $l = $lock();
    if (!$l->get()) {
        exit("not acquired\n");
    }
    $l->release();
}
printf("%s: %.0f cycles/s\n", $impl, $n / (microtime(true) - $t));
