<?php

declare(strict_types=1);

namespace RedLock\Symfony\Tests;

use PHPUnit\Framework\TestCase;
use RedLock\Symfony\RedLockStore;
use Symfony\Component\Lock\Exception\InvalidTtlException;
use Symfony\Component\Lock\Exception\LockAcquiringException;
use Symfony\Component\Lock\Exception\LockConflictedException;
use Symfony\Component\Lock\Exception\LockExpiredException;
use Symfony\Component\Lock\Exception\LockReleasingException;
use Symfony\Component\Lock\Exception\LockStorageException;
use Symfony\Component\Lock\Key;
use Symfony\Component\Lock\Lock;
use Symfony\Component\Lock\LockFactory;

/** What the store adds or must keep beyond the generic contract, and the store under Symfony's Lock. */
final class RedLockStoreTest extends TestCase
{
    private static function resource(string $method): string
    {
        return uniqid($method, true);
    }

    /**
     * Store A saves a key with a 0.2 s ttl and lets it run out; store B then takes the resource.
     * @return array{RedLockStore, Key, RedLockStore, Key} [A, A's key, B, B's key]
     */
    private static function outlivedAndTakenOver(string $resource): array
    {
        $mine = new Key($resource);
        $theirs = new Key($resource);
        $storeA = Servers::store(0.2);
        $storeB = Servers::store();
        $storeA->save($mine);
        usleep(300000);
        $storeB->save($theirs);

        return [$storeA, $mine, $storeB, $theirs];
    }

    public function testRejectsANonPositiveInitialTtl(): void
    {
        $this->expectException(InvalidTtlException::class);
        new RedLockStore(Servers::redlock(), 0.0);
    }

    public function testTheKeyStateIsTheLockArrayOnAMajority(): void
    {
        $store = Servers::store();
        $key = new Key(self::resource(__METHOD__));
        $store->save($key);

        $state = $key->getState(RedLockStore::class);
        $this->assertSame((string) $key, $state['resource']);
        $this->assertMatchesRegularExpression('/^[0-9a-f]{48}$/', $state['token']);
        // validity = ttl - elapsed - drift, drift = 1% of the ttl + 2 ms
        $this->assertGreaterThan(296000.0, $state['validity']);
        $this->assertSame(5, Servers::holders((string) $key));
        // The key's lifetime is the lock's validity, not more.
        $this->assertLessThanOrEqual($state['validity'] / 1000, $key->getRemainingLifetime());
        $this->assertGreaterThan(296.0, $key->getRemainingLifetime());

        $store->delete($key);
        $this->assertFalse($key->hasState(RedLockStore::class));
        $this->assertSame(0, Servers::holders((string) $key));
    }

    public function testEachKeyGetsItsOwnToken(): void
    {
        $store = Servers::store();
        $a = new Key(self::resource(__METHOD__));
        $b = new Key(self::resource(__METHOD__));
        $store->save($a);
        $store->save($b);
        $this->assertNotSame($a->getState(RedLockStore::class)['token'], $b->getState(RedLockStore::class)['token']);
        $store->delete($a);
        $store->delete($b);
    }

    public function testContentionBetweenTwoStoresEachWithItsOwnRedLock(): void
    {
        $resource = self::resource(__METHOD__);
        $mine = new Key($resource);
        $theirs = new Key($resource);
        $storeA = Servers::store();
        $storeB = Servers::store();

        $storeA->save($mine);
        try {
            $storeB->save($theirs);
            $this->fail('a second RedLock took a resource the first holds');
        } catch (LockConflictedException $e) {
        }
        $this->assertFalse($theirs->hasState(RedLockStore::class));
        $this->assertTrue($storeA->exists($mine));
        $this->assertFalse($storeB->exists($theirs));

        $storeA->delete($mine);
        $storeB->save($theirs);
        $this->assertTrue($storeB->exists($theirs));
        $storeB->delete($theirs);
    }

    public function testExistsIsFalseOnceAnotherStoreTookTheExpiredKey(): void
    {
        [$storeA, $mine, $storeB, $theirs] = self::outlivedAndTakenOver(self::resource(__METHOD__));
        $this->assertFalse($storeA->exists($mine));
        // Even with the Key's own lifetime put back, the servers no longer carry our token.
        $mine->resetLifetime();
        $this->assertFalse($storeA->exists($mine));
        $this->assertTrue($storeB->exists($theirs));
        $storeB->delete($theirs);
    }

    public function testDeletingAKeyWeDoNotHoldLeavesTheHolderAlone(): void
    {
        $resource = self::resource(__METHOD__);
        // Never saved: nothing to delete.
        Servers::store(0.2)->delete(new Key($resource));

        [$storeA, $mine, $storeB, $theirs] = self::outlivedAndTakenOver($resource);
        // Our lock ran out and $theirs holds the resource: deleting ours must not release theirs.
        $storeA->delete($mine);
        $this->assertTrue($storeB->exists($theirs));
        $this->assertSame(5, Servers::holders($resource));

        // A key copied from the holder but with another token cannot release it either.
        $forged = new Key($resource);
        $forged->setState(RedLockStore::class, ['resource' => $resource, 'token' => str_repeat('0', 32), 'validity' => 1.0]);
        $storeA->delete($forged);
        $this->assertTrue($storeB->exists($theirs));
        $this->assertFalse($storeA->exists($forged));

        $storeB->delete($theirs);
        $this->assertSame(0, Servers::holders($resource));
    }

    public function testPutOffExpirationOnAHeldKeyLengthensIt(): void
    {
        $store = Servers::store(0.3);
        $key = new Key(self::resource(__METHOD__));
        $store->save($key);
        $key->resetLifetime();
        $store->putOffExpiration($key, 2.0);
        usleep(500000); // past the initial 0.3 s
        $this->assertTrue($store->exists($key));
        $this->assertGreaterThan(1.0, $key->getRemainingLifetime());
        $this->assertSame(5, Servers::holders((string) $key));
        $store->delete($key);
    }

    public function testPutOffExpirationOnAnExpiredKeyThatAnotherTookConflicts(): void
    {
        $resource = self::resource(__METHOD__);
        [$storeA, $mine, $storeB, $theirs] = self::outlivedAndTakenOver($resource);

        $mine->resetLifetime(); // as Lock::refresh() does
        try {
            $storeA->putOffExpiration($mine, 10.0);
            $this->fail('put off the expiration of a lock someone else holds');
        } catch (LockConflictedException $e) {
        }
        $this->assertTrue($storeB->exists($theirs));
        $this->assertSame(5, Servers::holders($resource));
        $storeB->delete($theirs);
    }

    public function testPutOffExpirationOnAKeyWhoseServersTtlRanOutConflicts(): void
    {
        $store = Servers::store(0.2);
        $key = new Key(self::resource(__METHOD__));
        $store->save($key);
        usleep(300000);
        $key->resetLifetime();
        $this->expectException(LockConflictedException::class);
        $store->putOffExpiration($key, 10.0);
    }

    public function testPutOffExpirationOfANeverSavedKeyConflicts(): void
    {
        $this->expectException(LockConflictedException::class);
        Servers::store()->putOffExpiration(new Key(self::resource(__METHOD__)), 10.0);
    }

    public function testPutOffExpirationOnAKeyPastItsLifetimeIsExpired(): void
    {
        $store = Servers::store();
        $key = new Key(self::resource(__METHOD__));
        $store->save($key);
        $key->reduceLifetime(0);
        try {
            $store->putOffExpiration($key, 10.0);
            $this->fail('put off the expiration of an expired key');
        } catch (LockExpiredException $e) {
        }
        // The expired key was released on the servers.
        $this->assertSame(0, Servers::holders((string) $key));
    }

    /**
     * A put-off the servers all grant whose validity is not positive (ttl less the round trip and the
     * drift: here driftFactor 0.999 leaves 1 s - 999 ms - 2 ms), while the Key's own 1 s has not
     * passed: that is an expired lock (released, as RedisStore's checkNotExpired() does), not a
     * conflict. A conflict told Symfony's Lock someone else holds it, and the lock stayed on the
     * servers for its old ttl. (With the default drift a put-off of 2 ms or less does the same.)
     */
    public function testPutOffExpirationBelowTheDriftIsExpiredNotAConflict(): void
    {
        $store = new RedLockStore(new \RedLock(Servers::list(), 0, 1, ['driftFactor' => 0.999]));
        $key = new Key(self::resource(__METHOD__));
        $store->save($key);
        try {
            $store->putOffExpiration($key, 1.0);
            $this->fail('a put-off with no validity left passed');
        } catch (LockExpiredException $e) {
        }
        $this->assertFalse($key->hasState(RedLockStore::class));
        $this->assertSame(0, Servers::holders((string) $key), 'the lock was left on the servers');
    }

    public function testAShorterPutOffDoesNotShortenTheServersTtl(): void
    {
        // The documented difference from RedisStore: RedLock::extend() never shortens.
        $resource = self::resource(__METHOD__);
        $mine = new Key($resource);
        $store = Servers::store(5.0);
        $store->save($mine);
        $mine->resetLifetime();
        $store->putOffExpiration($mine, 0.1);
        usleep(200000);
        $this->assertFalse($store->exists($mine), 'the key outlived its own lifetime');
        $this->expectException(LockConflictedException::class);
        try {
            Servers::store()->save(new Key($resource));
        } finally {
            $mine->resetLifetime();
            $store->delete($mine);
            $this->assertSame(0, Servers::holders($resource));
        }
    }

    public function testTheStoreRefusesSerialization(): void
    {
        $this->expectException(\BadMethodCallException::class);
        serialize(Servers::store());
    }

    public function testASerializedKeyIsReleasedByAnotherStore(): void
    {
        $store = Servers::store();
        $key = new Key(self::resource(__METHOD__));
        $store->save($key);

        /** @var Key $copy */
        $copy = unserialize(serialize($key));
        $other = Servers::store();
        $this->assertTrue($other->exists($copy));
        $other->delete($copy);
        $this->assertFalse($store->exists($key));
        $this->assertSame(0, Servers::holders((string) $key));
    }

    public function testServersThatDoNotAnswerAreAnAcquiringErrorNotAConflict(): void
    {
        $store = new RedLockStore(new \RedLock(Servers::down(5), 0, 1));
        $key = new Key(self::resource(__METHOD__));
        try {
            $store->save($key);
            $this->fail('saved with no server up');
        } catch (LockAcquiringException $e) {
            $this->assertStringContainsString('connect: Connection refused', $e->getMessage());
        }
        $this->assertFalse($store->exists($key));

        $this->expectException(LockAcquiringException::class);
        (new Lock($key, $store))->acquire();
    }

    public function testAReleaseTheServersCouldNotConfirmThrowsAndCanBeRetried(): void
    {
        $resource = self::resource(__METHOD__);
        $key = new Key($resource);
        $store = Servers::store();
        $store->save($key);

        // The same lock, released through a RedLock that reaches only 2 of the 5 servers (the
        // 3 others listed are ports where nothing listens): the lock is still held on 3.
        $servers = Servers::list();
        $partial = new RedLockStore(new \RedLock([$servers[0], $servers[1], ...Servers::down(3)], 0, 1));
        try {
            $partial->delete($key);
            $this->fail('a release that reached 2 of 5 servers passed for done');
        } catch (LockReleasingException $e) {
            $this->assertStringContainsString('connect: Connection refused', $e->getMessage());
        }
        $this->assertTrue($key->hasState(RedLockStore::class));
        $this->assertTrue($store->exists($key));

        // Through Lock, the same failure is a LockReleasingException too.
        $lock = new Lock($key, $partial, null, false);
        try {
            $lock->release();
            $this->fail('Lock::release() passed for done');
        } catch (LockReleasingException $e) {
        }

        $store->delete($key);
        $this->assertFalse($store->exists($key));
        $this->assertSame(0, Servers::holders($resource));
    }

    /**
     * A refresh the servers could not answer (3 of 5 unreachable) is no conflict: the lock may well
     * still be ours. It is a LockStorageException (Lock::refresh(): a LockAcquiringException) that
     * keeps the Key's state, so the Lock stays acquired and releases itself; a conflict would have
     * told Symfony's Lock that someone else holds it (no auto-release: held until the ttl ran out).
     */
    public function testAPutOffTheServersCouldNotAnswerIsAStorageErrorNotAConflict(): void
    {
        $resource = self::resource(__METHOD__);
        $servers = Servers::list();
        $partial = new RedLockStore(new \RedLock([$servers[0], $servers[1], ...Servers::down(3)], 0, 1));
        $key = new Key($resource);
        Servers::store()->save($key);
        try {
            $partial->putOffExpiration($key, 30);
            $this->fail('a put-off that reached 2 of 5 servers passed for done');
        } catch (LockStorageException $e) {
            $this->assertStringContainsString('connect: Connection refused', $e->getMessage());
        }
        $this->assertTrue($key->hasState(RedLockStore::class));

        // Through Lock: not the LockConflictedException that marks it as no longer ours
        $lock = new Lock($key, $partial, 30.0, false);
        try {
            $lock->refresh();
            $this->fail('Lock::refresh() passed for done');
        } catch (LockAcquiringException $e) {
            $this->assertInstanceOf(LockStorageException::class, $e->getPrevious());
        }
        $this->assertTrue($key->hasState(RedLockStore::class));
        $this->assertTrue(Servers::store()->exists($key), 'the lock is still ours on the servers');
        Servers::store()->delete($key);
        $this->assertSame(0, Servers::holders($resource));
    }

    public function testTwoLockObjectsOnOneResourceConflict(): void
    {
        $factory = new LockFactory(Servers::store());
        $resource = self::resource(__METHOD__);
        $first = $factory->createLock($resource, 30.0);
        $second = $factory->createLock($resource, 30.0);

        $this->assertTrue($first->acquire());
        $this->assertFalse($second->acquire());
        $this->assertTrue($first->isAcquired());
        $this->assertFalse($second->isAcquired());
        $this->assertLessThanOrEqual(30.0, $first->getRemainingLifetime());

        $first->refresh(60.0);
        $this->assertGreaterThan(30.0, $first->getRemainingLifetime());

        $first->release();
        $this->assertFalse($first->isAcquired());
        $this->assertTrue($second->acquire());
        $second->release();
        $this->assertSame(0, Servers::holders($resource));
    }

    public function testBlockingAcquireWaitsForTheHolder(): void
    {
        $resource = self::resource(__METHOD__);
        // Held by a lock that will not be released: it ends on its own after 0.6 s.
        $holder = new Key($resource);
        Servers::store(0.6)->save($holder);

        $lock = (new LockFactory(Servers::store()))->createLock($resource, 10.0);
        $t0 = microtime(true);
        $this->assertFalse($lock->acquire());
        $this->assertTrue($lock->acquire(true));
        $waited = microtime(true) - $t0;
        $this->assertGreaterThan(0.5, $waited);
        $this->assertLessThan(2.0, $waited);
        $this->assertTrue($lock->isAcquired());
        $lock->release();
    }

    public function testBlockingAcquireExcludesConcurrentProcesses(): void
    {
        // 4 processes x 15 read-modify-write increments of one file, each inside a blocking
        // acquire(true) ... release(); a 2 ms pause between read and write loses updates unless the
        // lock excludes the others.
        $resource = self::resource(__METHOD__);
        $counter = tempnam(sys_get_temp_dir(), 'redlock-symfony-');
        file_put_contents($counter, '0');
        $code = <<<'PHP'
            require $argv[1];
            $factory = new Symfony\Component\Lock\LockFactory(RedLock\Symfony\Tests\Servers::store());
            for ($i = 0; $i < 15; ++$i) {
                $lock = $factory->createLock($argv[2], 10.0);
                $lock->acquire(true);
                $n = (int) file_get_contents($argv[3]);
                usleep(2000);
                file_put_contents($argv[3], (string) ($n + 1));
                $lock->release();
            }
            PHP;
        $procs = [];
        $outputs = [];
        for ($p = 0; $p < 4; ++$p) {
            $procs[] = proc_open(Servers::phpCommand($code, $resource, $counter), [1 => ['pipe', 'w'], 2 => ['pipe', 'w']], $pipes);
            $outputs[] = $pipes;
        }
        foreach ($procs as $i => $proc) {
            $out = stream_get_contents($outputs[$i][1]).stream_get_contents($outputs[$i][2]);
            $this->assertSame(0, proc_close($proc), $out);
        }
        $this->assertSame('60', file_get_contents($counter));
        unlink($counter);
    }

    /**
     * The store is a BlockingStoreInterface; a blocking acquire() over a RedLock with 'waitTimeout'
     * is woken by the holder's release (notified waiting), not by a retry pause.
     */
    public function testBlockingAcquireIsWokenByTheRelease(): void
    {
        $resource = self::resource(__METHOD__);
        $holder = (new LockFactory(Servers::store()))->createLock($resource, 30);
        self::assertTrue($holder->acquire());
        $pid = pcntl_fork();
        if ($pid === 0) {
            usleep(300000);
            $holder->release();
            posix_kill(getmypid(), SIGKILL); // nothing of PHPUnit's shutdown runs in the child
        }
        $waiting = new RedLockStore(new \RedLock(Servers::list(), 1000, 1, ['waitTimeout' => 5000]));
        self::assertInstanceOf(\Symfony\Component\Lock\BlockingStoreInterface::class, $waiting);
        $lock = (new LockFactory($waiting))->createLock($resource, 30);
        $start = microtime(true);
        self::assertTrue($lock->acquire(true));
        $waited = microtime(true) - $start;
        pcntl_waitpid($pid, $status);
        self::assertGreaterThan(0.2, $waited);
        self::assertLessThan(0.5, $waited, 'woken by the release, not after a retry pause');
        $lock->release();
    }

    /** Without waitTimeout waitAndSave() retries until it gets the lock, and only then returns. */
    public function testWaitAndSaveWithoutWaitTimeoutRetriesUntilTheLockIsFree(): void
    {
        $resource = self::resource(__METHOD__);
        $store = Servers::store(0.4); // the holder's key runs out after 0.4 s
        $store->save(new Key($resource));
        $key = new Key($resource);
        $start = microtime(true);
        Servers::store()->waitAndSave($key);
        $waited = microtime(true) - $start;
        self::assertGreaterThan(0.3, $waited);
        self::assertLessThan(1.5, $waited);
        self::assertTrue(Servers::store()->exists($key));
    }
}
