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

    /**
     * $n servers where nothing listens: ports REDLOCK_TEST_DOWN_PORT (default 7840, of the suite's
     * block) and up, 0.2 s timeouts.
     *
     * @return list<array{string, int, float}>
     */
    public static function down(int $n): array
    {
        $first = (int) (getenv('REDLOCK_TEST_DOWN_PORT') ?: 7840);

        return array_map(static fn (int $port) => ['127.0.0.1', $port, 0.2], range($first, $first + $n - 1));
    }

    /** @return list<string> this PHP, with the extension loaded and the tests' bootstrap path as $argv[1], running $code */
    public static function phpCommand(string $code, string ...$args): array
    {
        $so = getenv('REDLOCK_SO');
        if (false === $so || '' === $so) {
            throw new \RuntimeException('REDLOCK_SO is not set (run-tests.sh sets it)');
        }

        return [PHP_BINARY, '-d', 'extension='.$so, '-r', $code, '--', __DIR__.'/bootstrap.php', ...$args];
    }
}
