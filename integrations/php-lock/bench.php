<?php
/* One side of the php-lock/lock benchmark row: N synchronized() cycles on one mutex, no contention.
 *   php -d extension=modules/redlock.so integrations/php-lock/bench.php redlock|phpredis HOST:PORT,... N
 * redlock: RedLockMutex over one RedLock (every server at once); phpredis: the library's own
 * PHPRedisMutex over one \Redis per server (asked one after the other). Prints cycles per second. */
require_once '/usr/share/php/Malkusch/Lock/autoload.php';
require_once __DIR__ . '/src/RedLockMutex.php';

[, $impl, $list, $n] = $argv + [null, null, null, 1000];
$servers = array_map(fn ($hp) => explode(':', $hp), explode(',', $list));
if ($impl === 'redlock') {
    $mutex = new RedLock\PhpLock\RedLockMutex(new RedLock(array_map(fn ($s) => [$s[0], (int) $s[1], 1.0], $servers)), 'bench', 3);
} else {
    $mutex = new malkusch\lock\mutex\PHPRedisMutex(array_map(function ($s) {
        $redis = new Redis();
        $redis->connect($s[0], (int) $s[1], 1.0);
        return $redis;
    }, $servers), 'bench', 3);
}
$t = microtime(true);
for ($i = 0; $i < (int) $n; $i++) {
    $mutex->synchronized(fn () => null);
}
printf("%s: %.0f cycles/s\n", $impl, $n / (microtime(true) - $t));
