<?php

declare(strict_types=1);

namespace RedLock\Laravel;

use Illuminate\Contracts\Cache\LockProvider;
use Illuminate\Contracts\Cache\Store;

/**
 * A cache store whose locks are Redlocks: lock(), restoreLock() and everything Laravel builds on
 * them (block(), ShouldBeUnique, WithoutOverlapping, the scheduler's mutexes). Values live in the
 * value store it is given (config 'values': another store of config/cache.php), so that it can be
 * the application's default store: Cache::remember(), the rate limiter and every value call go
 * there, every lock Laravel takes goes through Redlock. Without a value store every value call is
 * a BadMethodCallException that says so, never a silent miss.
 *
 * The value store also keeps, for a lock taken with an owner of the caller's, owner -> token (and
 * the lock's seconds) under a key derived from both, for as long as the lock lives: that is how
 * restoreLock($name, $owner) in another process finds the token the servers hold.
 */
class RedLockStore implements Store, LockProvider
{
    public const FOREVER_SECONDS = 86400;

    public function __construct(
        private RedLocks $redlocks,
        private ?Store $values = null,
        private int $foreverSeconds = self::FOREVER_SECONDS
    ) {
        if ($foreverSeconds < 1) {
            throw new \ValueError(sprintf('%s(): Argument #3 ($foreverSeconds) must be at least 1, %d given', __METHOD__, $foreverSeconds));
        }
    }

    /** The RedLock that gets, releases and extends (getLastErrors() says what each server answered). */
    public function redlock(): \RedLock
    {
        return $this->redlocks->attempts();
    }

    public function redlocks(): RedLocks
    {
        return $this->redlocks;
    }

    /** The store that holds the values, or null. */
    public function values(): ?Store
    {
        return $this->values;
    }

    public function lock($name, $seconds = 0, $owner = null)
    {
        return new RedLockLock($this, $name, $seconds, $owner);
    }

    public function restoreLock($name, $owner)
    {
        return $this->lock($name, 0, $owner);
    }

    /** The ttl a lock of $seconds gets: $seconds, or for 0 ("no expiry") the 'forever' seconds. */
    public function ttlSeconds(int $seconds): int
    {
        return $seconds > 0 ? $seconds : $this->foreverSeconds;
    }

    /** Whether $owner has the form of the extension's tokens (the owner of a lock taken without one). */
    public static function isToken(mixed $owner): bool
    {
        return is_string($owner) && preg_match('/^[0-9a-f]{48}$/', $owner) === 1;
    }

    /** Writes owner -> token for restoreLock() elsewhere; false without a value store (this object only). */
    public function rememberOwner(string $name, string $owner, string $token, int $seconds): bool
    {
        if ($this->values === null) {
            return false;
        }

        return $this->values->put(self::ownerKey($name, $owner), [$token, $seconds], $this->ttlSeconds($seconds));
    }

    /** @return array{string, int}|null [token, seconds] remembered for $owner of lock $name */
    public function recallOwner(string $name, string $owner): ?array
    {
        $remembered = $this->values?->get(self::ownerKey($name, $owner));

        return is_array($remembered) && self::isToken($remembered[0] ?? null) ? [$remembered[0], (int) $remembered[1]] : null;
    }

    public function forgetOwner(string $name, string $owner): void
    {
        $this->values?->forget(self::ownerKey($name, $owner));
    }

    /** The token $owner would hold lock $name with, or null when none is known. */
    public function tokenOf(string $name, string $owner): ?string
    {
        return $this->recallOwner($name, $owner)[0] ?? (self::isToken($owner) ? $owner : null);
    }

    /** A value-store key that names neither the lock nor the owner in clear. */
    private static function ownerKey(string $name, string $owner): string
    {
        return 'redlock-owner:' . hash('sha256', $name . "\0" . $owner);
    }

    public function get($key)
    {
        return $this->valueStore(__FUNCTION__)->get($key);
    }

    public function many(array $keys)
    {
        return $this->valueStore(__FUNCTION__)->many($keys);
    }

    public function put($key, $value, $seconds)
    {
        return $this->valueStore(__FUNCTION__)->put($key, $value, $seconds);
    }

    public function putMany(array $values, $seconds)
    {
        return $this->valueStore(__FUNCTION__)->putMany($values, $seconds);
    }

    /** Atomic where the value store's add() is (Repository::add() calls it when it exists). */
    public function add($key, $value, $seconds)
    {
        $values = $this->valueStore(__FUNCTION__);
        if (method_exists($values, 'add')) {
            return $values->add($key, $value, $seconds);
        }
        if ($values->get($key) !== null) {
            return false;
        }

        return $values->put($key, $value, $seconds);
    }

    public function increment($key, $value = 1)
    {
        return $this->valueStore(__FUNCTION__)->increment($key, $value);
    }

    public function decrement($key, $value = 1)
    {
        return $this->valueStore(__FUNCTION__)->decrement($key, $value);
    }

    public function forever($key, $value)
    {
        return $this->valueStore(__FUNCTION__)->forever($key, $value);
    }

    /** Laravel 13's Store::touch(). */
    public function touch($key, $seconds)
    {
        return $this->valueStore(__FUNCTION__)->touch($key, $seconds);
    }

    public function forget($key)
    {
        return $this->valueStore(__FUNCTION__)->forget($key);
    }

    public function flush()
    {
        return $this->valueStore(__FUNCTION__)->flush();
    }

    /** The value store's prefix; the locks' own is RedLock's 'prefix' option (the cache prefix by default). */
    public function getPrefix()
    {
        return $this->values?->getPrefix() ?? '';
    }

    /** Anything else a value store offers (RedisStore::connection(), ...) is the value store's. */
    public function __call($method, $arguments)
    {
        return $this->valueStore($method)->$method(...$arguments);
    }

    private function valueStore(string $method): Store
    {
        if ($this->values === null) {
            throw new \BadMethodCallException(sprintf(
                'The redlock cache store holds only locks: %s() has no value to work on. Give it a value store '
                . '(\'values\' => \'redis\' in its config/cache.php entry) or keep values in another store.',
                $method
            ));
        }

        return $this->values;
    }
}
