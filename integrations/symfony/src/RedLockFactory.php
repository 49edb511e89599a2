<?php

declare(strict_types=1);

namespace RedLock\Symfony;

use Symfony\Component\Lock\Key;
use Symfony\Component\Lock\LockFactory;
use Symfony\Component\Lock\SharedLockInterface;

/**
 * Symfony's LockFactory, with each Key carrying its Lock's ttl (RedLockStore::expireAfter()), so
 * that a RedLockStore holds a lock on the servers for that ttl from save() on: a holder that crashes
 * frees it after the Lock's own ttl, not the store's $initialTtl (the extension never shortens a
 * lock, so the Lock's refresh() right after save() could not bring it down).
 *
 *     $factory = new RedLockFactory(new RedLockStore(new \RedLock($servers, 0, 1)));
 *     $lock = $factory->createLock('invoice:42', 30.0);
 */
class RedLockFactory extends LockFactory
{
    /** SharedLockInterface: what 6.x-7.x declare, and within the LockInterface of 5.4 and later (Symfony's Lock is both). */
    public function createLockFromKey(Key $key, ?float $ttl = 300.0, bool $autoRelease = true): SharedLockInterface
    {
        RedLockStore::expireAfter($key, $ttl);

        return parent::createLockFromKey($key, $ttl, $autoRelease);
    }
}
