<?php

declare(strict_types=1);

namespace RedLock\PhpLock;

use malkusch\lock\exception\ExecutionOutsideLockException;
use malkusch\lock\exception\LockAcquireException;
use malkusch\lock\exception\LockReleaseException;
use malkusch\lock\exception\TimeoutException;
use malkusch\lock\mutex\LockMutex;

/**
 * A php-lock/lock mutex over the redlock extension: the library's RedisMutex contract (the key
 * "lock_<name>", a lease of $timeout + 1 seconds, up to $timeout seconds to acquire it, and the
 * code expected to finish within $timeout seconds), with the extension asking every server at once
 * and waking on a release when the RedLock object has 'waitTimeout'.
 *
 *     $mutex = new RedLockMutex(new RedLock($servers), 'balance', 3);
 *     $mutex->synchronized(fn () => $account->withdraw(10));
 *
 * - The lock cannot be had within $timeout seconds: TimeoutException, as the library's mutexes.
 * - Fewer than a majority of servers answered (down, refused, timed out): LockAcquireException
 *   with code REDIS_NOT_ENOUGH_SERVERS, as the library's RedisMutex, with what each server said.
 * - The code ran longer than $timeout seconds: the lock is released all the same (a release of a
 *   lock that ran out touches nobody else's), then ExecutionOutsideLockException.
 * - The release did not reach a majority: LockReleaseException.
 */
final class RedLockMutex extends LockMutex
{
    private const PREFIX = 'lock_';

    /** @var array{validity: float, resource: string, token: string}|null */
    private ?array $lock = null;

    private float $acquiredAt = 0.0;

    private string $key;

    public function __construct(private \RedLock $redlock, string $name, private int $timeout = 3)
    {
        if ($timeout < 1) {
            throw new \ValueError(sprintf('%s(): Argument #3 ($timeout) must be at least 1 second, %d given', __METHOD__, $timeout));
        }
        $this->key = self::PREFIX . $name;
    }

    protected function lock(): void
    {
        $deadline = microtime(true) + $this->timeout;
        $pause = 100;
        for (;;) {
            $this->acquiredAt = microtime(true);
            $lock = $this->redlock->lock($this->key, ($this->timeout + 1) * 1000);
            if ($lock !== false) {
                $this->lock = $lock;
                return;
            }
            $this->failIfServersAreMissing();
            $left = $deadline - microtime(true);
            if ($left <= 0) {
                throw TimeoutException::create($this->timeout);
            }
            // as the library's Loop: a random pause that grows, never past the deadline
            usleep((int) min($left * 1e6, random_int($pause, 2 * $pause) * 1000));
            $pause = min(2 * $pause, 250);
        }
    }

    protected function unlock(): void
    {
        $lock = $this->lock;
        $this->lock = null;
        $elapsed = microtime(true) - $this->acquiredAt;
        $released = $lock !== null && $this->redlock->unlock($lock);
        if ($elapsed > $this->timeout) {
            throw ExecutionOutsideLockException::create($elapsed, $this->timeout);
        }
        if (!$released) {
            throw new LockReleaseException('Failed to release the lock: ' . $this->describeErrors());
        }
    }

    /**
     * A failed lock() is contention unless the servers that failed leave no majority, as the library
     * counts it: "no reply needed" (the outcome was decided without that server) is not a failure.
     */
    private function failIfServersAreMissing(): void
    {
        $errors = $this->redlock->getLastErrors();
        $failed = count(array_filter(
            $errors,
            fn (?string $e) => $e !== null && $e !== 'taken' && $e !== 'no reply needed'
        ));
        if (count($errors) - $failed <= count($errors) / 2) {
            throw new LockAcquireException(
                "It's not possible to acquire a lock because at least half of the Redis server are not available: "
                . $this->describeErrors(),
                LockAcquireException::REDIS_NOT_ENOUGH_SERVERS
            );
        }
    }

    private function describeErrors(): string
    {
        $parts = [];
        foreach ($this->redlock->getLastErrors() as $index => $error) {
            $parts[] = "#$index " . ($error ?? 'ok');
        }
        return implode(', ', $parts);
    }
}
