<?php

declare(strict_types=1);

namespace RedLock\Symfony\Tests;

use RedLock\Symfony\RedLockStore;
use Symfony\Component\Lock\Exception\LockConflictedException;
use Symfony\Component\Lock\Key;

/** What StoreContractTest and SharedLockContractTest state their scenarios with (as Symfony's store tests do). */
trait StoreScenarios
{
    private function getStore(): RedLockStore
    {
        return Servers::store();
    }

    private static function resource(string $method): string
    {
        return uniqid($method, true);
    }

    /** @return list<Key> $count keys on one fresh resource */
    private static function keysOn(string $method, int $count): array
    {
        $resource = self::resource($method);
        $keys = [];
        for ($i = 0; $i < $count; $i++) {
            $keys[] = new Key($resource);
        }

        return $keys;
    }

    /** The store holds each key of $held, and none of $free. */
    private function assertHolds(RedLockStore $store, array $held, array $free = []): void
    {
        foreach ($held as $i => $key) {
            $this->assertTrue($store->exists($key), "held key $i");
        }
        foreach ($free as $i => $key) {
            $this->assertFalse($store->exists($key), "free key $i");
        }
    }

    /**
     * $key1 is held and $key2 on the same resource is not: $take($key2) is refused and leaves $key1
     * alone; once $key1 is deleted, $take($key2) gets in. Ends with neither held.
     */
    private function assertRefusedUntilDeleted(RedLockStore $store, Key $key1, Key $key2, callable $take, string $message): void
    {
        $this->assertConflicts(fn () => $take($key2), $message);
        $this->assertHolds($store, [$key1], [$key2]);
        $store->delete($key1);
        $this->assertHolds($store, [], [$key1, $key2]);
        $take($key2);
        $this->assertHolds($store, [$key2], [$key1]);
        $store->delete($key2);
        $this->assertHolds($store, [], [$key2]);
    }

    /** $save (a save the store must refuse) throws LockConflictedException; else fails with $message. */
    private function assertConflicts(callable $save, string $message): void
    {
        try {
            $save();
        } catch (LockConflictedException $e) {
            $this->addToAssertionCount(1);

            return;
        }
        $this->fail($message);
    }
}
