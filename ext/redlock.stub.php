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
    public function __construct(array $servers, int $retryDelay = 200, int $retryCount = 3) {}

    public function lock(string $resource, int $ttl): array|false {}

    public function unlock(array $lock): bool {}

    /** @return array<int, string|null> */
    public function getLastErrors(): array {}
}
