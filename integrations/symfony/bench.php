<?php

declare(strict_types=1);

/*
 * Lock + release cycles per second through Symfony\Component\Lock\Lock (LockFactory::createLock()
 * with its default ttl, 300 s, so acquire() = save() + putOffExpiration(), release() = delete() +
 * exists()), over one of two stores on the same servers:
 *   combined  CombinedStore([RedisStore(phpredis) x N], new ConsensusStrategy())
 *   redlock   RedLock\Symfony\RedLockStore(new RedLock(N servers))
 *
 *   php -d extension=modules/redlock.so integrations/symfony/bench.php MODE HOST:PORT,... SECONDS
 * prints "MODE cycles=C seconds=S rate=R" (R cycles/s). bench.sh starts servers and the delay
 * proxy and runs both modes in turn.
 */

use RedLock\Symfony\RedLockStore;
use Symfony\Component\Lock\LockFactory;
use Symfony\Component\Lock\Store\CombinedStore;
use Symfony\Component\Lock\Store\RedisStore;
use Symfony\Component\Lock\Strategy\ConsensusStrategy;

require_once '/usr/share/php/Symfony/Component/Lock/autoload.php';
require_once __DIR__.'/src/RedLockStore.php';

[$mode, $list, $seconds] = [$argv[1] ?? '', $argv[2] ?? '', (float) ($argv[3] ?? 1.0)];
$servers = [];
foreach (explode(',', $list) as $hostPort) {
    [$host, $port] = explode(':', $hostPort);
    $servers[] = [$host, (int) $port, 1.0];
}
if (!$servers || $seconds <= 0 || !in_array($mode, ['combined', 'redlock'], true)) {
    fwrite(STDERR, "usage: bench.php combined|redlock HOST:PORT,... SECONDS\n");
    exit(2);
}

if ('combined' === $mode) {
    $stores = [];
    foreach ($servers as [$host, $port, $timeout]) {
        $redis = new Redis();
        $redis->connect($host, $port, $timeout);
        $stores[] = new RedisStore($redis);
    }
    $store = new CombinedStore($stores, new ConsensusStrategy());
} else {
    $store = new RedLockStore(new RedLock($servers));
}
$factory = new LockFactory($store);
$resource = 'bench:symfony:'.getmypid();

$cycle = static function () use ($factory, $resource): void {
    $lock = $factory->createLock($resource);
    if (!$lock->acquire()) {
        throw new RuntimeException("could not lock $resource");
    }
    $lock->release();
};

for ($i = 0; $i < 20; ++$i) { // warm-up: connections, script caches
    $cycle();
}
$n = 0;
$t0 = hrtime(true);
$end = $t0 + (int) ($seconds * 1e9);
do {
    $cycle();
    ++$n;
} while (hrtime(true) < $end);
$elapsed = (hrtime(true) - $t0) / 1e9;
printf("%s cycles=%d seconds=%.3f rate=%.1f\n", $mode, $n, $elapsed, $n / $elapsed);
