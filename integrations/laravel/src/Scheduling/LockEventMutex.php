<?php

declare(strict_types=1);

namespace RedLock\Laravel\Scheduling;

use Illuminate\Console\Scheduling\CacheAware;
use Illuminate\Console\Scheduling\Event;
use Illuminate\Console\Scheduling\EventMutex;

/**
 * withoutOverlapping() of scheduled events on the redlock store's locks. Laravel 8's CacheEventMutex
 * uses plain cache calls (add, has, forget), which the redlock store refuses; later Laravel versions
 * take locks when the store is a LockProvider, as this class does (same names, same ttl). Bind it in a
 * service provider's register(): $this->app->singleton(EventMutex::class, LockEventMutex::class);
 */
class LockEventMutex implements EventMutex, CacheAware
{
    use LocksOnAStore;

    public function create(Event $event)
    {
        return $this->lock($event)->acquire();
    }

    /** Held by someone: the lock cannot be taken now (taken and given back at once when free). */
    public function exists(Event $event)
    {
        return false === $this->lock($event)->get(fn () => true);
    }

    public function forget(Event $event)
    {
        $this->lock($event)->forceRelease();
    }

    private function lock(Event $event)
    {
        return $this->lockNamed($event->mutexName(), $event->expiresAt * 60);
    }
}
