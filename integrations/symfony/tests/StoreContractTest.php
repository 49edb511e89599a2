<?php

declare(strict_types=1);

namespace RedLock\Symfony\Tests;

use PHPUnit\Framework\TestCase;
use Symfony\Component\Lock\Exception\LockExpiredException;
use Symfony\Component\Lock\Key;

/**
 * The store contract as Symfony's own store tests state it (AbstractStoreTestCase and
 * ExpiringStoreTestTrait in symfony/lock's Tests/Store, which Debian's php-symfony-lock does not
 * ship): the same scenarios, written here against RedLockStore on real redis-servers.
 */
final class StoreContractTest extends TestCase
{
    use StoreScenarios;

    /** Microseconds: long enough against the servers' round trips, short enough for a quick run. */
    private const CLOCK_DELAY = 250000;

    public function testSave(): void
    {
        $store = $this->getStore();
        $key = new Key(self::resource(__METHOD__));

        $this->assertFalse($store->exists($key));
        $store->save($key);
        $this->assertTrue($store->exists($key));
        $store->delete($key);
        $this->assertFalse($store->exists($key));
    }

    public function testSaveWithDifferentResources(): void
    {
        $store = $this->getStore();
        $key1 = new Key(self::resource(__METHOD__));
        $key2 = new Key(self::resource(__METHOD__));

        $store->save($key1);
        $this->assertHolds($store, [$key1], [$key2]);
        $store->save($key2);
        $this->assertHolds($store, [$key1, $key2]);
        $store->delete($key1);
        $this->assertHolds($store, [$key2], [$key1]);
        $store->delete($key2);
        $this->assertHolds($store, [], [$key1, $key2]);
    }

    public function testSaveWithDifferentKeysOnSameResources(): void
    {
        $store = $this->getStore();
        [$key1, $key2] = self::keysOn(__METHOD__, 2);

        $store->save($key1);
        $this->assertHolds($store, [$key1], [$key2]);
        // The failed attempt leaves the holder's lock alone.
        $this->assertRefusedUntilDeleted($store, $key1, $key2, fn (Key $key) => $store->save($key),
            'The store saved a second key on a resource another key holds');
    }

    public function testSaveTwice(): void
    {
        $store = $this->getStore();
        $key = new Key(self::resource(__METHOD__));

        $store->save($key);
        $token = $key->getState(\RedLock\Symfony\RedLockStore::class)['token'];
        $store->save($key);
        // Saving a key we hold again keeps it (same token: extended, not re-locked).
        $this->assertTrue($store->exists($key));
        $this->assertSame($token, $key->getState(\RedLock\Symfony\RedLockStore::class)['token']);

        $store->delete($key);
        $this->assertFalse($store->exists($key));
    }

    public function testDeleteIsolated(): void
    {
        $store = $this->getStore();
        $key1 = new Key(self::resource(__METHOD__));
        $key2 = new Key(self::resource(__METHOD__));

        $store->save($key1);
        $this->assertHolds($store, [$key1], [$key2]);
        $store->delete($key2);
        $this->assertHolds($store, [$key1], [$key2]);
        $store->delete($key1);
    }

    public function testExpiration(): void
    {
        $key = new Key(self::resource(__METHOD__));
        $store = $this->getStore();

        $store->save($key);
        $store->putOffExpiration($key, self::CLOCK_DELAY / 1000000);
        $this->assertTrue($store->exists($key));

        usleep(2 * self::CLOCK_DELAY);
        $this->assertFalse($store->exists($key));
    }

    public function testAbortAfterExpiration(): void
    {
        $key = new Key(self::resource(__METHOD__));
        $store = $this->getStore();
        $store->save($key);

        $this->expectException(LockExpiredException::class);
        $store->putOffExpiration($key, 1 / 1000000);
    }

    public function testRefreshLock(): void
    {
        // Saved with a short initial ttl, so that the servers' keys too run out (extend() never shortens).
        $store = Servers::store(self::CLOCK_DELAY / 1000000);
        $key = new Key(self::resource(__METHOD__));

        $store->save($key);
        $store->putOffExpiration($key, self::CLOCK_DELAY / 1000000);
        $this->assertTrue($store->exists($key));

        usleep(2 * self::CLOCK_DELAY);
        $this->assertFalse($store->exists($key));
        $this->assertSame(0, Servers::holders((string) $key), 'the servers still hold the key');
    }

    public function testSetExpiration(): void
    {
        $key = new Key(self::resource(__METHOD__));
        $store = $this->getStore();

        $store->save($key);
        $store->putOffExpiration($key, 1);
        $this->assertGreaterThanOrEqual(0, $key->getRemainingLifetime());
        $this->assertLessThanOrEqual(1, $key->getRemainingLifetime());
        $store->delete($key);
    }

    public function testExpiredLockCleaned(): void
    {
        [$key1, $key2] = self::keysOn(__METHOD__, 2);
        $store = $this->getStore();

        $key1->reduceLifetime(0);
        $this->assertTrue($key1->isExpired());
        try {
            $store->save($key1);
            $this->fail('The store saved an expired key');
        } catch (LockExpiredException $e) {
        }
        $this->assertFalse($store->exists($key1));

        // The expired key's lock was released on the servers: another key gets the resource at once.
        $store->save($key2);
        $this->assertTrue($store->exists($key2));
        $store->delete($key2);
    }
}
