<?php

declare(strict_types=1);

namespace RedLock\Laravel\Scheduling;

use Illuminate\Contracts\Cache\Factory as Cache;

/**
 * What LockEventMutex and LockSchedulingMutex share: the cache store whose locks they take (CacheAware's
 * useStore(), 'redlock' by default), and the lock of a name on it.
 */
trait LocksOnAStore
{
    public Cache $cache;
    public string $store = 'redlock';

    public function __construct(Cache $cache)
    {
        $this->cache = $cache;
    }

    public function useStore($store)
    {
        $this->store = $store;

        return $this;
    }

    private function lockNamed(string $name, int $seconds)
    {
        return $this->cache->store($this->store)->lock($name, $seconds);
    }
}
