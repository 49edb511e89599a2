<?php

declare(strict_types=1);

namespace RedLock\Symfony\Tests;

use RedLock\Symfony\RedLockStore;

/** The redis-servers run-tests.sh started (REDLOCK_TEST_SERVERS=host:port,...). */
final class Servers
{
    /** @return list<array{string, int, float}> */
    public static function list(): array
    {
        $servers = [];
        foreach (explode(',', (string) getenv('REDLOCK_TEST_SERVERS')) as $hostPort) {
            [$host, $port] = explode(':', trim($hostPort));
            $servers[] = [$host, (int) $port, 0.5];
        }

        return $servers;
    }

    /** One attempt per save(): a conflict answers after one round trip, as RedisStore's does. */
    public static function redlock(int $retryCount = 1): \RedLock
    {
        return new \RedLock(self::list(), 0, $retryCount);
    }

    public static function store(float $initialTtl = 300.0): RedLockStore
    {
        return new RedLockStore(self::redlock(), $initialTtl);
    }

    /** How many servers hold $resource right now (read with plain Redis commands, not through the store). */
    public static function holders(string $resource): int
    {
        $n = 0;
        foreach (self::list() as [$host, $port]) {
            $r = new \Redis();
            $r->connect($host, $port, 0.5);
            $n += (int) $r->exists($resource);
            $r->close();
        }

        return $n;
    }
}
