<?php

/** @generate-class-entries */

/**
 * @var string
 * @cvalue PHP_REDLOCK_VERSION
 */
const PHP_REDLOCK_VERSION = UNKNOWN;

/** @not-serializable */
class RedLock
{
    /** Options: quorum (int), driftFactor (float), prefix (string), persistent (bool), maxExtensions (?int). */
    public function __construct(array $servers, int $retryDelay = 200, int $retryCount = 3, array $options = []) {}

    public function lock(string|array $resource, int $ttl): array|false {}

    public function unlock(array $lock): bool {}

    public function extend(array $lock, int $ttl): array|false {}

    public function validity(array $lock): float|false {}

    public function run(string|array $resource, int $ttl, callable $fn): mixed {}
}

class RedLockException extends RuntimeException
{
}
