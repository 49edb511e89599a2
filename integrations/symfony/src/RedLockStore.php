<?php

declare(strict_types=1);

namespace RedLock\Symfony;

use Symfony\Component\Lock\BlockingSharedLockStoreInterface;
use Symfony\Component\Lock\BlockingStoreInterface;
use Symfony\Component\Lock\Exception\InvalidTtlException;
use Symfony\Component\Lock\Exception\LockAcquiringException;
use Symfony\Component\Lock\Exception\LockConflictedException;
use Symfony\Component\Lock\Exception\LockExpiredException;
use Symfony\Component\Lock\Exception\LockReleasingException;
use Symfony\Component\Lock\Exception\LockStorageException;
use Symfony\Component\Lock\Key;
use Symfony\Component\Lock\PersistingStoreInterface;

/**
 * A Symfony Lock store over the redlock extension: one Redlock (a majority of several independent
 * Redis servers) per key, in place of CombinedStore + ConsensusStrategy over several RedisStores.
 *
 * The key's state (under this class's name) is the lock array returned by RedLock::lock() /
 * RedLock::extend(): ['validity' => ms, 'resource' => string, 'token' => string]. Every lock() call
 * draws a fresh token, so two Keys (two Lock objects) on one resource conflict, even in one process.
 * The state is a plain array: a Key can be serialized and released or refreshed by another process.
 *
 * Differences from RedisStore that follow from the extension:
 *  - putOffExpiration() can lengthen a lock but never shorten it on the servers (RedLock::extend()
 *    only lengthens). So save() holds a Key for its Lock's own ttl when the Key carries it
 *    (RedLockFactory's locks do, see ttlOf()), and for $initialTtl otherwise: a holder that crashes
 *    frees its lock after the Lock's ttl, as with CombinedStore over RedisStores, only when the lock
 *    came from RedLockFactory (or the Key went through expireAfter()).
 *  - Too few servers answer (no majority, none said "taken"): save() throws LockAcquiringException
 *    naming each server's error, as RedisStore throws when its server fails; CombinedStore counts a
 *    conflict there, so acquire() is false and cannot be told from a held lock. A blocking
 *    acquire(true) waits through it (waitAndSave() retries, the pause growing to 1 s), as
 *    CombinedStore's does, until the servers answer and the lock is ours.
 *  - putOffExpiration() that too few servers answer is a LockStorageException that keeps the Key's
 *    state (the lock may still be ours), not the LockConflictedException of a lock lost.
 *  - save() makes as many attempts as the RedLock's retryCount (retryDelay apart); build the RedLock
 *    with retryCount 1 for a non-blocking acquire() that answers after one round trip.
 *  - Read locks (SharedLockStoreInterface) are RedLock::lockShared() holders. save() of a Key held for
 *    reading promotes it (RedLock::promote(): only as the one reader left, else LockConflictedException
 *    and the read lock stays); saveRead() of a Key held for writing demotes it (RedLock::demote(): when
 *    that fails nothing is held any more, and it is a LockConflictedException).
 *  - waitAndSave() (a blocking acquire()) waits until the lock is ours. With a RedLock that has
 *    'waitTimeout', each attempt waits that long and wakes when the holder releases; without it,
 *    it retries with a growing random pause (Symfony's own loop polls every 100 ms).
 */
final class RedLockStore implements PersistingStoreInterface, BlockingStoreInterface, BlockingSharedLockStoreInterface
{
    private \RedLock $redlock;
    private float $initialTtl;

    /**
     * @param float $initialTtl seconds a save() holds a Key that does not carry its Lock's ttl
     *                          (Lock::acquire() then refreshes it to the Lock's own ttl when it has
     *                          one, never shorter on the servers), as RedisStore's
     */
    public function __construct(\RedLock $redlock, float $initialTtl = 300.0)
    {
        if ($initialTtl <= 0) {
            throw new InvalidTtlException(sprintf('"%s()" expects a strictly positive TTL. Got %d.', __METHOD__, $initialTtl));
        }
        $this->redlock = $redlock;
        $this->initialTtl = $initialTtl;
    }

    public function __sleep(): array
    {
        throw new \BadMethodCallException('Cannot serialize '.__CLASS__);
    }

    public function __wakeup(): void
    {
        throw new \BadMethodCallException('Cannot unserialize '.__CLASS__);
    }

    /** The state entry where a Key carries its Lock's ttl (seconds), set by expireAfter(). */
    public const TTL_STATE = __CLASS__.':ttl';

    /**
     * Records on $key the ttl its Lock will put the expiration off to ($ttl seconds, null: none), so
     * that save() holds it that long and not $initialTtl (RedLockFactory does this for every lock).
     */
    public static function expireAfter(Key $key, ?float $ttl): void
    {
        if (null === $ttl || $ttl <= 0) {
            $key->removeState(self::TTL_STATE);
        } else {
            $key->setState(self::TTL_STATE, $ttl);
        }
    }

    /** Seconds a save() holds $key: its Lock's ttl when the Key carries it, else $initialTtl. */
    private function ttlOf(Key $key): float
    {
        return $key->hasState(self::TTL_STATE) ? (float) $key->getState(self::TTL_STATE) : $this->initialTtl;
    }

    public function save(Key $key): void
    {
        // Held for reading: the writer only as the one reader left (RedisStore's promotion).
        $this->saveAs($key, false, function (array $held, int $ttlMs) use ($key): array {
            $lock = $this->redlock->promote($held, $ttlMs);
            if (false === $lock) {
                $this->failedToLock($key, true);
            }

            return $lock;
        }, fn (string $name, int $ttlMs) => $this->redlock->lock($name, $ttlMs));
    }

    public function saveRead(Key $key): void
    {
        // Held for writing: others may read from now on (RedisStore's demotion).
        $this->saveAs($key, true, function (array $held, int $ttlMs) use ($key): array {
            $lock = $this->redlock->demote($held, $ttlMs);
            if (false === $lock) {
                $key->removeState(__CLASS__);
                throw new LockConflictedException(sprintf('Failed to turn the "%s" lock into a read lock: it is no longer held.', $key));
            }

            return $lock;
        }, fn (string $name, int $ttlMs) => $this->redlock->lockShared($name, $ttlMs));
    }

    /**
     * save() ($shared false) and saveRead() (true): a key held the other way is turned into this way by
     * $convert (held, ttl ms; throws when it cannot); one held this way is kept when we still hold it
     * (extend() checks our token), as RedisStore re-saves a key it holds; otherwise $fresh (name, ttl ms)
     * locks it afresh.
     */
    private function saveAs(Key $key, bool $shared, callable $convert, callable $fresh): void
    {
        $ttl = $this->ttlOf($key);
        $ttlMs = self::toMs($ttl);
        $key->reduceLifetime($ttl);

        $lock = false;
        $held = $key->hasState(__CLASS__) ? $key->getState(__CLASS__) : null;
        if (null !== $held && empty($held['shared']) === $shared) {
            $lock = $convert($held, $ttlMs);
        } elseif (null !== $held) {
            $lock = $this->redlock->extend($held, $ttlMs);
            if (false === $lock) {
                $key->removeState(__CLASS__);
            }
        }
        if (false === $lock) {
            $lock = $fresh((string) $key, $ttlMs);
        }
        $this->stored($key, $lock);
    }

    public function waitAndSaveRead(Key $key): void
    {
        $this->waitFor(fn () => $this->saveRead($key));
    }

    /** The lock array of a save()/saveRead() into the Key, or the failure as Symfony expects it. */
    private function stored(Key $key, array|false $lock): void
    {
        if (false === $lock) {
            $this->failedToLock($key);
        }
        $key->setState(__CLASS__, $lock);
        $key->reduceLifetime($lock['validity'] / 1000);
        $this->checkNotExpired($key);
    }

    public function waitAndSave(Key $key): void
    {
        $this->waitFor(fn () => $this->save($key));
    }

    /**
     * Calls $save until it stops conflicting, with a growing random pause (20 to 200 ms); while too
     * few servers answer, the pause grows to 1 s (CombinedStore's acquire(true) polls on as well).
     */
    private function waitFor(callable $save): void
    {
        $pause = 20000; // us
        for (;;) {
            try {
                $save();

                return;
            } catch (LockConflictedException $e) {
                $pause = min($pause, 200000);
            } catch (LockAcquiringException $e) {
                $pause = max($pause, 100000);
            }
            usleep(random_int(intdiv($pause, 2), $pause));
            $pause = min(2 * $pause, 1000000);
        }
    }

    public function delete(Key $key): void
    {
        if (!$key->hasState(__CLASS__)) {
            return;
        }
        // unlock() deletes the resource only on the servers where it still holds our token: a key
        // taken meanwhile by someone else is left alone. It never throws for server trouble: when it
        // fails and no majority of the servers said the key no longer holds our token ("taken"), the
        // others could not answer and the lock may still be ours on a majority. Then keep the state
        // and throw, as RedisStore's delete() throws when Redis fails, so that it can be retried.
        if (!$this->redlock->unlock($key->getState(__CLASS__))) {
            $errors = $this->redlock->getLastErrors();
            $taken = \count(array_keys($errors, 'taken', true));
            if ($taken < intdiv(\count($errors), 2) + 1 && self::trouble($errors)) {
                throw new LockReleasingException(sprintf('Failed to release the "%s" lock: %s.', $key, self::describe($errors)));
            }
        }
        $key->removeState(__CLASS__);
    }

    public function exists(Key $key): bool
    {
        if (!$key->hasState(__CLASS__) || $key->isExpired()) {
            return false;
        }

        return false !== $this->redlock->validity($key->getState(__CLASS__));
    }

    /**
     * @param float $ttl seconds
     */
    public function putOffExpiration(Key $key, float $ttl): void
    {
        if (!$key->hasState(__CLASS__)) {
            throw new LockConflictedException(sprintf('The "%s" lock is not held by this key.', $key));
        }
        $key->reduceLifetime($ttl);
        $lock = $this->redlock->extend($key->getState(__CLASS__), self::toMs($ttl));
        if (false === $lock) {
            // Either the servers' ttl ran out / someone else holds it, or the new validity
            // (ttl - elapsed - drift) is not positive: the latter is an expired key.
            $this->checkNotExpired($key);
            // Or too few servers answered to say it is lost: the lock may still be ours, so the
            // Key keeps its state and it is no conflict (Lock::refresh() would take it for lost
            // and never release it), but a LockStorageException, as RedisStore's Redis failure.
            $errors = $this->redlock->getLastErrors();
            if (\count(array_keys($errors, null, true)) >= intdiv(\count($errors), 2) + 1) {
                // A majority granted it, but the new validity (ttl less the round trip and the
                // drift) is not positive, though the Key's own ttl may not have passed: expired.
                $key->reduceLifetime(0);
                $this->checkNotExpired($key);
            }
            $trouble = self::trouble($errors);
            if (\count($errors) - \count($trouble) < intdiv(\count($errors), 2) + 1) {
                throw new LockStorageException(sprintf('Failed to put off the expiration of the "%s" lock: too few servers answered (%s).', $key, self::describe($errors)));
            }
            throw new LockConflictedException(sprintf('Failed to put off the expiration of the "%s" lock: it is no longer held.', $key));
        }
        $key->setState(__CLASS__, $lock);
        $key->reduceLifetime($lock['validity'] / 1000);
        $this->checkNotExpired($key);
    }

    /** As Symfony's ExpiringStoreTrait::checkNotExpired(). */
    private function checkNotExpired(Key $key): void
    {
        if ($key->isExpired()) {
            try {
                $this->delete($key);
            } catch (\Exception $e) {
                // swallow exception to not hide the original issue
            }
            throw new LockExpiredException(sprintf('Failed to store the "%s" lock.', $key));
        }
    }

    /**
     * lock() returned false. Contention (a server said "taken"), or a lock won too late, is a
     * LockConflictedException, so that Lock::acquire() returns false or, blocking, tries again. When
     * no server reported the resource taken and some could not answer, the servers are the problem:
     * a LockAcquiringException naming what each said.
     *
     * @return never
     */
    private function failedToLock(Key $key, bool $promoting = false): void
    {
        $errors = $this->redlock->getLastErrors();
        $taken = \in_array('taken', $errors, true);
        $trouble = self::trouble($errors);
        if (!$taken && $trouble) {
            throw new LockAcquiringException(sprintf('Failed to acquire the "%s" lock: too few servers answered (%s).', $key, self::describe($trouble)));
        }
        throw new LockConflictedException($promoting
            ? sprintf('The "%s" lock has other readers: it stays a read lock.', $key)
            : sprintf('The "%s" lock is held by someone else.', $key));
    }

    /**
     * The getLastErrors() entries of servers that could not answer (refused, timed out, errors): not
     * "taken", "no reply needed" (decided without it), nor a wait (waitTimeout) that ended while an
     * attempt was on its way.
     */
    private static function trouble(array $errors): array
    {
        return array_filter($errors, static fn ($e) => !\in_array($e, [null, 'taken', 'no reply needed', "timeout: the call's deadline passed"], true));
    }

    /** "server 0: taken; server 2: connect: Connection refused" from getLastErrors() entries. */
    private static function describe(array $errors): string
    {
        $parts = [];
        foreach ($errors as $i => $e) {
            $parts[] = "server $i: ".($e ?? 'ok');
        }

        return implode('; ', $parts);
    }

    private static function toMs(float $seconds): int
    {
        return max(1, (int) ceil($seconds * 1000));
    }
}
