<?php

declare(strict_types=1);

namespace RedLock\Laravel;

use Illuminate\Contracts\Cache\LockProvider;
use Illuminate\Contracts\Cache\Store;

/**
 * A cache store that holds only locks: Cache::store('redlock')->lock(...), restoreLock(...), and
 * everything Laravel builds on them (block(), ShouldBeUnique, WithoutOverlapping). Values belong in
 * another store: every value call is a BadMethodCallException that says so, never a silent miss.
 */
class RedLockStore implements Store, LockProvider
{
    public function __construct(private \RedLock $redlock)
    {
    }

    public function redlock(): \RedLock
    {
        return $this->redlock;
    }

    public function lock($name, $seconds = 0, $owner = null)
    {
        return new RedLockLock($this->redlock, $name, $seconds, $owner);
    }

    public function restoreLock($name, $owner)
    {
        return $this->lock($name, 0, $owner);
    }

    public function get($key)
    {
        self::onlyLocks(__FUNCTION__);
    }

    public function many(array $keys)
    {
        self::onlyLocks(__FUNCTION__);
    }

    public function put($key, $value, $seconds)
    {
        self::onlyLocks(__FUNCTION__);
    }

    public function putMany(array $values, $seconds)
    {
        self::onlyLocks(__FUNCTION__);
    }

    public function increment($key, $value = 1)
    {
        self::onlyLocks(__FUNCTION__);
    }

    public function decrement($key, $value = 1)
    {
        self::onlyLocks(__FUNCTION__);
    }

    public function forever($key, $value)
    {
        self::onlyLocks(__FUNCTION__);
    }

    public function forget($key)
    {
        self::onlyLocks(__FUNCTION__);
    }

    public function flush()
    {
        self::onlyLocks(__FUNCTION__);
    }

    public function getPrefix()
    {
        return '';
    }

    /** @return never */
    private static function onlyLocks(string $method): void
    {
        throw new \BadMethodCallException(sprintf(
            'The redlock cache store holds only locks: %s() has no value to work on. Use Cache::store(\'redlock\')->lock() '
            . 'for locks and keep values in another store.',
            $method
        ));
    }
}
