<?php

declare(strict_types=1);

namespace RedLock\Laravel;

use Illuminate\Cache\Lock;
use Illuminate\Contracts\Cache\LockTimeoutException;

/**
 * A Laravel cache lock over RedLock. The servers hold the extension's token, drawn afresh by every
 * attempt (so that a late rollback of one attempt can never delete the key of another); Laravel's
 * owner is kept as the caller means it:
 *  - no owner given: the owner is the token once acquired, so owner() after get() is what
 *    restoreLock($name, $owner) needs in another process (a queued job);
 *  - an owner given (lock($name, $s, $jobId)): owner() stays $jobId, and the store writes
 *    owner -> token into its value store, where restoreLock($name, $jobId) in another process
 *    finds it (docs/guide/laravel.md#owners).
 * $seconds = 0 (Laravel: no expiry) is the store's 'forever' ttl: Redlock keys always expire.
 */
class RedLockLock extends Lock
{
    /** The extension's token for our owner, once acquired or recalled; null: none known. */
    private ?string $token = null;
    private bool $ownerIsToken;
    private bool $recalled = false;
    /** Whether the store's value store holds owner -> token for us (a caller's owner). */
    private bool $remembered = false;

    public function __construct(private RedLockStore $store, $name, $seconds, $owner = null)
    {
        $this->ownerIsToken = $owner === null;
        parent::__construct($name, $seconds, $owner);
    }

    /**
     * One attempt, as every Laravel store's: never the RedLock's retries or waitTimeout. False when
     * the lock is held elsewhere; LockServersUnavailableException when the servers could not decide.
     */
    public function acquire()
    {
        $redlock = $this->store->redlocks()->attempts();

        return $this->acquired($redlock->lock($this->name, $this->ttlMs()), $redlock);
    }

    /**
     * Waits at most $seconds: Laravel's loop of attempts, where each pause is, with 'waitTimeout',
     * a wait woken by the holder's release and cut at the deadline.
     */
    public function block($seconds, $callback = null)
    {
        $deadline = microtime(true) + $seconds;
        while (!$this->acquire()) {
            $left = $deadline - microtime(true);
            if ($left <= 0) {
                throw new LockTimeoutException();
            }
            if (!$this->store->redlocks()->waitTimeout()) { // none, or 0: Laravel's pause
                usleep((int) min($this->sleepMilliseconds * 1000, $left * 1e6));
                continue;
            }
            $waiting = $this->store->redlocks()->waiting((int) ($left * 1000));
            if ($this->acquired($waiting->lock($this->name, $this->ttlMs()), $waiting)) {
                break;
            }
        }
        if (is_callable($callback)) {
            try {
                return $callback();
            } finally {
                $this->release();
            }
        }

        return true;
    }

    /**
     * True when released; false when our owner does not hold it. LockServersUnavailableException when
     * too few servers answered to tell (as Laravel's Redis store throws RedisException): the lock may
     * still be held, and a silent false would leave it for its ttl unnoticed.
     */
    public function release()
    {
        $lock = $this->lockArray();
        if ($lock === null) {
            return false;
        }
        $redlock = $this->store->redlocks()->attempts();
        if (!$redlock->unlock($lock)) {
            $this->store->redlocks()->failUnlessDecided($redlock, $this->name, 'release');

            return false;
        }
        if ($this->remembered) {
            $this->store->forgetOwner($this->name, $this->owner);
        }

        return true;
    }

    /** LockServersUnavailableException when too few servers answered (a finished ShouldBeUnique job's lock would stay). */
    public function forceRelease()
    {
        $redlock = $this->store->redlocks()->attempts();
        if (!$redlock->forceUnlock($this->name)) {
            $this->store->redlocks()->failUnlessDecided($redlock, $this->name, 'force-release');
        }
    }

    /**
     * A fresh ttl for the lock our owner holds: $seconds, or the lock's own seconds (those it was
     * taken with, also when restored by an owner the store remembers; else the 'forever' ttl, as
     * Laravel's RedisLock makes a restored lock's key persist). False when it is lost.
     */
    public function refresh($seconds = null)
    {
        $lock = $this->lockArray();
        $seconds = (int) ($seconds ?? $this->seconds);
        if ($lock === null || $this->store->redlocks()->attempts()->extend($lock, $this->ttlMs($seconds)) === false) {
            return false;
        }
        if ($this->remembered) {
            $this->store->rememberOwner($this->name, $this->owner, $lock['token'], $seconds);
        }

        return true;
    }

    /** Whether $owner holds the lock now (a majority holds its token): any Lock object may ask. */
    public function isOwnedBy($owner)
    {
        $token = $owner === $this->owner ? $this->token() : $this->store->tokenOf($this->name, (string) $owner);

        return $token !== null
            && $this->store->redlocks()->attempts()->validity(['resource' => $this->name, 'token' => $token]) !== false;
    }

    public function isOwnedByCurrentProcess()
    {
        return $this->isOwnedBy($this->owner);
    }

    /**
     * Whether anyone holds the lock (Laravel 13): RedLock::isLocked(), a quorum read that takes
     * nothing (docs/guide/inspect.md). Without a quorum of answers nobody can say: true, as a
     * get() would fail then too. Advisory: it can change the moment after.
     */
    public function isLocked(): bool
    {
        return $this->store->redlocks()->attempts()->isLocked($this->name) ?? true;
    }

    /** Our owner while a majority holds our token; null otherwise (another holder cannot be named). */
    protected function getCurrentOwner()
    {
        return $this->isOwnedByCurrentProcess() ? $this->owner : null;
    }

    /** @throws LockServersUnavailableException when $lock is false because the servers could not decide */
    private function acquired(array|false $lock, \RedLock $from): bool
    {
        if ($lock === false) {
            $this->store->redlocks()->failUnlessDecided($from, $this->name);

            return false;
        }
        $this->token = $lock['token'];
        if ($this->ownerIsToken) {
            $this->owner = $lock['token'];

            return true;
        }
        try {
            $this->remembered = $this->store->rememberOwner($this->name, $this->owner, $lock['token'], (int) $this->seconds);
        } catch (\Throwable $e) {
            $this->store->redlocks()->attempts()->unlock($lock); // held under an owner nobody could restore
            throw $e;
        }

        return true;
    }

    /** The token our owner holds: acquired here, remembered by the store, or the owner itself. */
    private function token(): ?string
    {
        if ($this->token === null && !$this->recalled) {
            $this->recalled = true;
            $remembered = $this->ownerIsToken ? null : $this->store->recallOwner($this->name, (string) $this->owner);
            if ($remembered !== null) {
                [$this->token, $this->seconds] = $remembered;
                $this->remembered = true;
            } elseif (RedLockStore::isToken($this->owner)) {
                $this->token = $this->owner;
            }
        }

        return $this->token;
    }

    /** @return array{resource: string, token: string}|null */
    private function lockArray(): ?array
    {
        $token = $this->token();

        return $token === null ? null : ['resource' => $this->name, 'token' => $token];
    }

    private function ttlMs(?int $seconds = null): int
    {
        return $this->store->ttlSeconds((int) ($seconds ?? $this->seconds)) * 1000;
    }
}
