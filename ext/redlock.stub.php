<?php

/**
 * @generate-class-entries
 * @generate-legacy-arginfo 80100
 */

/**
 * @var string
 * @cvalue PHP_REDLOCK_VERSION
 */
const PHP_REDLOCK_VERSION = UNKNOWN;

/** @not-serializable */
class RedLock
{
    /** Options: quorum (int), driftFactor (float), prefix (string), persistent (bool), maxExtensions (?int), fencing (bool),
     * autoExtend (bool), abortOnLoss (bool), waitTimeout (?int ms). */
    public function __construct(#[\SensitiveParameter] array $servers, int $retryDelay = 200, int $retryCount = 3, array $options = []) {}

    /** A list of resource names locks all of them at once (all or none on each server). */
    public function lock(string|array $resource, int $ttl): array|false {}

    /** At most $limit holders at once (1..1024); the array carries "limit" and "slot". */
    public function lockSemaphore(string $resource, int $limit, int $ttl): array|false {}

    /** Any number of shared holders, never together with a lock() holder; the array carries "shared" => true. */
    public function lockShared(string $resource, int $ttl): array|false {}

    public function unlock(array $lock): bool {}

    /** Deletes the resource's key(s) on every server whoever holds them (an administrative release, as
     * Laravel's forceRelease()); waiters are woken. True when a quorum did. Semaphore slots are not touched. */
    public function forceUnlock(string|array $resource): bool {}

    /** Gives a lock still held a fresh ttl; false when it is lost, expired or over maxExtensions. */
    public function extend(array $lock, int $ttl): array|false {}

    /** Milliseconds a quorum still holds the lock (drift subtracted), or false. */
    public function validity(array $lock): float|false {}

    /** Locks, calls $fn(array $lock, RedLock $redlock), always unlocks; RedLockException when not locked. */
    public function run(string|array $resource, int $ttl, callable $fn): mixed {}

    /** Per server, in constructor order: null, or why the last call got no vote there. */
    public function getLastErrors(): array {}
}

/** Thrown by RedLock::run() when the lock cannot be acquired. */
class RedLockException extends RuntimeException
{
}
