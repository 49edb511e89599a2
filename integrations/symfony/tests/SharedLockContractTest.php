<?php

declare(strict_types=1);

namespace RedLock\Symfony\Tests;

use PHPUnit\Framework\TestCase;
use RedLock\Symfony\RedLockStore;
use Symfony\Component\Lock\Key;
use Symfony\Component\Lock\LockFactory;

/**
 * Read locks as Symfony's own SharedLockStoreTestTrait states them (symfony/lock's Tests/Store, which
 * Debian does not ship): the same five scenarios, against RedLockStore on real redis-servers; then
 * the blocking read (BlockingSharedLockStoreInterface) and Lock::acquireRead() through LockFactory.
 */
final class SharedLockContractTest extends TestCase
{
    use StoreScenarios;

    public function testSharedLockReadFirst(): void
    {
        $store = $this->getStore();
        [$key1, $key2, $key3] = self::keysOn(__METHOD__, 3);

        $store->saveRead($key1);
        $this->assertHolds($store, [$key1], [$key2, $key3]);
        // several keys may read at once
        $store->saveRead($key2);
        $this->assertHolds($store, [$key1, $key2], [$key3]);
        $this->assertConflicts(fn () => $store->save($key3), 'The store saved a writer beside two readers');
        // the failed attempt leaves the readers alone
        $this->assertHolds($store, [$key1, $key2], [$key3]);
        $store->delete($key1);
        $this->assertHolds($store, [$key2], [$key1, $key3]);
        $store->delete($key2);
        $this->assertHolds($store, [], [$key1, $key2, $key3]);
        $store->save($key3);
        $this->assertHolds($store, [$key3]);
        $store->delete($key3);
    }

    public function testSharedLockWriteFirst(): void
    {
        $store = $this->getStore();
        [$key1, $key2] = self::keysOn(__METHOD__, 2);

        $store->save($key1);
        $this->assertHolds($store, [$key1], [$key2]);
        $this->assertRefusedUntilDeleted($store, $key1, $key2, fn (Key $key) => $store->saveRead($key),
            'The store saved a reader beside a writer');
    }

    public function testSharedLockPromote(): void
    {
        $store = $this->getStore();
        [$key1, $key2] = self::keysOn(__METHOD__, 2);

        $store->saveRead($key1);
        $store->saveRead($key2);
        $this->assertHolds($store, [$key1, $key2]);
        $this->assertConflicts(fn () => $store->save($key1), 'A reader became the writer beside another reader');
        // refused, and still a reader (as RedisStore leaves it)
        $this->assertHolds($store, [$key1, $key2]);
        $store->delete($key1);
        $store->delete($key2);
    }

    public function testSharedLockPromoteAllowed(): void
    {
        $store = $this->getStore();
        [$key1, $key2] = self::keysOn(__METHOD__, 2);

        $store->saveRead($key1);
        $store->save($key1);
        $this->assertRefusedUntilDeleted($store, $key1, $key2, fn (Key $key) => $store->saveRead($key),
            'A reader was let in beside the promoted writer');
    }

    public function testSharedLockDemote(): void
    {
        $store = $this->getStore();
        [$key1, $key2, $key3] = self::keysOn(__METHOD__, 3);

        $store->save($key1);
        $store->saveRead($key1);
        $store->saveRead($key2);
        $this->assertHolds($store, [$key1, $key2]);
        $this->assertConflicts(fn () => $store->save($key3), 'A writer was let in beside the demoted reader');
        $store->delete($key1);
        $store->delete($key2);
        $store->save($key3);
        $this->assertHolds($store, [$key3]);
        $store->delete($key3);
    }

    public function testSavingAReadLockTwiceKeepsIt(): void
    {
        $store = $this->getStore();
        $key = new Key(self::resource(__METHOD__));

        $store->saveRead($key);
        $token = $key->getState(RedLockStore::class)['token'];
        $store->saveRead($key);
        $this->assertTrue($store->exists($key));
        $this->assertSame($token, $key->getState(RedLockStore::class)['token']);
        $store->delete($key);
        $this->assertFalse($store->exists($key));
    }

    public function testWaitAndSaveReadWaitsForTheWriter(): void
    {
        $resource = self::resource(__METHOD__);
        $writer = new Key($resource);
        $reader = new Key($resource);
        $store = $this->getStore();
        $store->save($writer);
        // a writer that goes away after 300 ms: by expiry on the servers, as a crashed process's would
        $short = new RedLockStore(Servers::redlock(), 0.3);
        $store->delete($writer);
        $short->save($writer);

        $start = microtime(true);
        $store->waitAndSaveRead($reader);
        $waited = microtime(true) - $start;
        $this->assertTrue($store->exists($reader));
        $this->assertGreaterThan(0.15, $waited);
        $this->assertLessThan(3.0, $waited);
        $store->delete($reader);
    }

    public function testLockFactoryReadThenWriteThenRead(): void
    {
        $factory = new LockFactory($this->getStore());
        $resource = self::resource(__METHOD__);
        $lock = $factory->createLock($resource, 10);
        $other = $factory->createLock($resource, 10);

        $this->assertTrue($lock->acquireRead());
        $this->assertTrue($other->acquireRead());
        $this->assertFalse($lock->acquire(), 'promoted beside another reader');
        $this->assertTrue($lock->isAcquired(), 'the refused promotion lost the read lock');
        $other->release();
        $this->assertTrue($lock->acquire(), 'the one reader left was not promoted');
        $this->assertFalse($other->acquireRead(), 'a reader beside the writer');
        $this->assertTrue($lock->acquireRead(), 'not demoted');
        $this->assertTrue($other->acquireRead(), 'no reader beside the demoted lock');
        $lock->release();
        $other->release();
        $this->assertFalse($lock->isAcquired());
    }
}
