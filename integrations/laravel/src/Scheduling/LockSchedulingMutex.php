<?php

declare(strict_types=1);

namespace RedLock\Laravel\Scheduling;

use DateTimeInterface;
use Illuminate\Console\Scheduling\CacheAware;
use Illuminate\Console\Scheduling\Event;
use Illuminate\Console\Scheduling\SchedulingMutex;

/**
 * onOneServer() of scheduled events on the redlock store's locks: one server of the fleet runs the
 * event each minute (the lock, named as CacheSchedulingMutex's key, lives an hour). Bind it in a
 * service provider's register(): $this->app->singleton(SchedulingMutex::class, LockSchedulingMutex::class);
 */
class LockSchedulingMutex implements SchedulingMutex, CacheAware
{
    use LocksOnAStore;

    public function create(Event $event, DateTimeInterface $time)
    {
        return $this->lock($event, $time)->acquire();
    }

    public function exists(Event $event, DateTimeInterface $time)
    {
        return false === $this->lock($event, $time)->get(fn () => true);
    }

    private function lock(Event $event, DateTimeInterface $time)
    {
        return $this->lockNamed($event->mutexName().$time->format('Hi'), 3600);
    }
}
