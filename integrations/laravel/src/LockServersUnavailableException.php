<?php

declare(strict_types=1);

namespace RedLock\Laravel;

/**
 * The lock servers could not decide: too few of them answered for a majority, and those that said
 * "taken" were too few to refuse the lock on their own. Thrown by get(), block(), release(),
 * forceRelease() and everything built on them (ShouldBeUnique, WithoutOverlapping, the scheduler's
 * mutexes) where Laravel's Redis store
 * throws the RedisException of a server it cannot reach; a lock held elsewhere stays false.
 * getErrors() is what each server said (RedLock::getLastErrors(), in the order of 'servers').
 */
class LockServersUnavailableException extends \RuntimeException
{
    /** @param array<int, string|null> $errors */
    public function __construct(string $message, private array $errors = [])
    {
        parent::__construct($message);
    }

    /** @return array<int, string|null> per server: null (it voted yes) or why it gave no vote */
    public function getErrors(): array
    {
        return $this->errors;
    }
}
