<?php

declare(strict_types=1);

namespace RedLock\Laravel\Tests;

use Illuminate\Cache\Lock;
use Illuminate\Cache\RedisStore;
use Illuminate\Contracts\Cache\LockProvider;
use Illuminate\Redis\Connections\PhpRedisConnection;
use PHPUnit\Framework\TestCase;
use RedLock\Laravel\RedLocks;
use RedLock\Laravel\RedLockStore;

/**
 * Laravel's Lock API, the same steps against Laravel's own RedisStore (one server, phpredis) and the
 * redlock store: every answer must be RedisLock's. Methods a Laravel version lacks in its Lock class
 * (isOwnedBy() before 11.8, isLocked() before 13.7, refresh() before 12.63/13.16) are compared only
 * where that version has them, and checked on the redlock store in every version.
 */
final class LockApiTest extends TestCase
{
    private static function redis(): PhpRedisConnection
    {
        [$host, $port] = explode(':', explode(',', (string) getenv('REDLOCK_TEST_SERVERS'))[0]);
        $client = new \Redis();
        $client->connect($host, (int) $port, 1.0);
        $client->select(3);

        return new PhpRedisConnection($client);
    }

    /** @return array<string, array{LockProvider}> */
    public static function stores(): array
    {
        $servers = [];
        foreach (array_slice(explode(',', (string) getenv('REDLOCK_TEST_SERVERS')), 0, 3) as $hostPort) {
            [$host, $port] = explode(':', $hostPort);
            $servers[] = [$host, (int) $port, 1.0];
        }
        $redisStore = new RedisStore(new class (self::redis()) implements \Illuminate\Contracts\Redis\Factory {
            public function __construct(private PhpRedisConnection $connection)
            {
            }

            public function connection($name = null)
            {
                return $this->connection;
            }
        }, 'lockapi');

        return [
            "Laravel's RedisStore" => [$redisStore],
            'the redlock store' => [new RedLockStore(new RedLocks($servers, 10, ['prefix' => 'lockapi:']), $redisStore)],
        ];
    }

    /** Whether $store's locks have $method: the redlock store's always, Laravel's where its Lock has it (public). */
    private static function has(LockProvider $store, string $method): bool
    {
        return $store instanceof RedLockStore
            || (method_exists(Lock::class, $method) && (new \ReflectionMethod(Lock::class, $method))->isPublic());
    }

    /** A fresh name's lock taken by 'owner-1' for $seconds: [name, lock]. */
    private static function takenByOwner1(LockProvider $store, int $seconds): array
    {
        $name = uniqid('api-', true);
        $lock = $store->lock($name, $seconds, 'owner-1');
        self::assertTrue($lock->get());

        return [$name, $lock];
    }

    /**
     * isLocked() on the redlock store is RedLock::isLocked(), a read: no SET reaches the servers (it
     * took the lock for a round trip before, so a get() by another worker in that moment failed).
     */
    public function testIsLockedWritesNothing(): void
    {
        $store = self::stores()['the redlock store'][0];
        [$host, $port] = explode(':', explode(',', (string) getenv('REDLOCK_TEST_SERVERS'))[0]);
        $redis = new \Redis();
        $redis->connect($host, (int) $port, 1.0);
        $sets = static function () use ($redis): int {
            $stat = $redis->info('commandstats')['cmdstat_set'] ?? 'calls=0';
            preg_match('/calls=(\d+)/', (string) $stat, $m);

            return (int) $m[1];
        };
        $name = uniqid('peek-', true);
        $before = $sets();
        self::assertFalse($store->lock($name, 30)->isLocked());
        self::assertSame($before, $sets(), 'isLocked() of a free lock wrote to the server');
        $lock = $store->lock($name, 30);
        self::assertTrue($lock->get());
        // get() returns on a quorum: its own SET may land on this server later, and be counted as
        // isLocked()'s (CI's rehearsal saw 30 for 29). Counted once it landed.
        for ($deadline = microtime(true) + 10.0; $redis->keys('*' . $name . '*') === [] && microtime(true) < $deadline;) {
            usleep(10000);
        }
        $before = $sets();
        self::assertTrue($store->lock($name, 30)->isLocked());
        self::assertSame($before, $sets());
        self::assertTrue($lock->release());
    }

    /** @dataProvider stores */
    #[\PHPUnit\Framework\Attributes\DataProvider('stores')]
    public function testOwnersAsLaravelMeansThem(LockProvider $store): void
    {
        [$name, $lock] = self::takenByOwner1($store, 30);
        self::assertSame('owner-1', $lock->owner());
        self::assertFalse($store->lock($name, 30, 'owner-2')->get());
        if (self::has($store, 'isOwnedBy')) {
            self::assertTrue($store->lock($name)->isOwnedBy('owner-1'));
            self::assertFalse($store->lock($name)->isOwnedBy('owner-2'));
        }
        if (self::has($store, 'isOwnedByCurrentProcess')) {
            self::assertTrue($store->restoreLock($name, 'owner-1')->isOwnedByCurrentProcess());
            self::assertFalse($store->restoreLock($name, 'owner-2')->isOwnedByCurrentProcess());
        }
        if (self::has($store, 'isLocked')) {
            self::assertTrue($store->lock($name)->isLocked());
        }
        self::assertFalse($store->restoreLock($name, 'owner-2')->release());
        self::assertTrue($store->restoreLock($name, 'owner-1')->release());
        self::assertFalse($lock->release(), 'released twice');
        if (self::has($store, 'isLocked')) {
            self::assertFalse($store->lock($name)->isLocked());
        }
        $again = $store->lock($name, 30);
        self::assertTrue($again->get());
        self::assertTrue($store->restoreLock($name, $again->owner())->release(), 'the owner Laravel drew, restored');
    }

    /** @dataProvider stores */
    #[\PHPUnit\Framework\Attributes\DataProvider('stores')]
    public function testRefreshAndForceRelease(LockProvider $store): void
    {
        [$name, $lock] = self::takenByOwner1($store, 1);
        if ($store instanceof RedLockStore || method_exists(get_class($lock), 'refresh')) {
            self::assertTrue($store->restoreLock($name, 'owner-1')->refresh(5));
            self::assertFalse($store->restoreLock($name, 'owner-2')->refresh(5));
            usleep(1200000);
            self::assertFalse($store->lock($name, 5)->get(), 'refreshed past its first second');
        }
        $store->lock($name)->forceRelease();
        self::assertTrue($store->lock($name, 5)->get(), 'forceRelease() left it');
        self::assertFalse($lock->release(), 'the first owner released a lock no longer its own');
        $store->lock($name)->forceRelease();
    }

    /** @dataProvider stores */
    #[\PHPUnit\Framework\Attributes\DataProvider('stores')]
    public function testBlockWaitsBetweenAttemptsAsAsked(LockProvider $store): void
    {
        $name = uniqid('api-', true);
        self::assertTrue($store->lock($name, 1)->get()); // gone on its own after 1 s
        $lock = $store->lock($name, 5);
        if (method_exists($lock, 'betweenBlockedAttemptsSleepFor')) {
            $lock->betweenBlockedAttemptsSleepFor(50);
        }
        $start = microtime(true);
        self::assertSame('ran', $lock->block(3, fn () => 'ran'));
        self::assertLessThan(2.5, microtime(true) - $start);
        $store->lock($name)->forceRelease();
    }
}
