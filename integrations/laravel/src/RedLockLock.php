<?php

declare(strict_types=1);

namespace RedLock\Laravel;

use Illuminate\Cache\Lock;

/**
 * A Laravel cache lock over RedLock. Laravel's owner is the lock's token once it is acquired:
 * owner() after get() or block() is what restoreLock($name, $owner) needs in another process
 * (a queued job) to release it. An owner passed in beforehand is replaced on acquisition, since
 * every attempt of the extension draws a token of its own (a late rollback of one attempt must
 * never delete the key of another).
 */
class RedLockLock extends Lock
{
    /** Redlock locks always expire: a lock asked for "forever" ($seconds 0) lasts a day. */
    public const FOREVER_SECONDS = 86400;

    public function __construct(private \RedLock $redlock, $name, $seconds, $owner = null)
    {
        parent::__construct($name, $seconds, $owner);
    }

    public function acquire()
    {
        $seconds = $this->seconds > 0 ? $this->seconds : self::FOREVER_SECONDS;
        $lock = $this->redlock->lock($this->name, (int) ($seconds * 1000));
        if ($lock === false) {
            return false;
        }
        $this->owner = $lock['token'];

        return true;
    }

    public function release()
    {
        $lock = $this->lockArray();

        return $lock !== null && $this->redlock->unlock($lock);
    }

    public function forceRelease()
    {
        $this->redlock->forceUnlock($this->name);
    }

    /** Gives the lock held by this owner a fresh ttl (Laravel 10's refresh()); false when it is lost. */
    public function refresh($seconds = null)
    {
        $lock = $this->lockArray();
        $seconds = $seconds ?? ($this->seconds > 0 ? $this->seconds : self::FOREVER_SECONDS);

        return $lock !== null && $this->redlock->extend($lock, (int) ($seconds * 1000)) !== false;
    }

    /** The owner the servers hold for this lock: ours while a majority holds our token, else ''. */
    protected function getCurrentOwner()
    {
        $lock = $this->lockArray();

        return $lock !== null && $this->redlock->validity($lock) !== false ? $this->owner : '';
    }

    /** The extension's lock array for our owner, or null when the owner is not one of its tokens. */
    private function lockArray(): ?array
    {
        if (!is_string($this->owner) || preg_match('/^[0-9a-f]{32}([0-9a-f]{16})?$/', $this->owner) !== 1) {
            return null; // never acquired here, or an owner from elsewhere: nothing of ours to touch
        }

        return ['resource' => $this->name, 'token' => $this->owner];
    }
}
