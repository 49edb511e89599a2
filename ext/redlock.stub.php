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
    /**
     * A Redlock over several independent Redis servers.
     *
     * @param array $servers each a [host, port, timeout] list (as in the PHP library), a redis://, rediss://,
     *        unix://, sentinel:// or cluster:// URI, or a keyed array (host, port, timeout, username, password, database, tls;
     *        or sentinels and master for a Sentinel-managed member: see docs/guide/sentinel.md; or cluster for a
     *        Redis Cluster as one member: see docs/guide/cluster.md); a timeout is at most 60 s
     * @param int $retryDelay ms between attempts (at most 3600000); each pause is drawn from [retryDelay/2, retryDelay]
     * @param int $retryCount attempts per lock() (0 behaves as 1; at most 1000000)
     * @param array $options quorum (int), driftFactor (float), prefix (string), persistent (bool),
     *        maxExtensions (?int), fencing (bool), autoExtend (bool), abortOnLoss (bool), waitTimeout (?int ms, at most 86400000),
     *        fair (bool: a waiting lock() or lockSemaphore() queues, first come first served; needs waitTimeout > 0, see docs/guide/fair.md),
     *        observer (?callable, as setObserver()), onLoss (?callable(array $lock, string $reason): called on
     *        the PHP thread once per lock found lost; see docs/guide/renewal-and-waiting.md), scripts (bool,
     *        default true; false: no Lua, see docs/guide/script-free.md), evictingServers ("warn", the default:
     *        getServerWarnings(); "refuse": a server whose maxmemory-policy can evict lock keys gets no vote; see
     *        docs/guide/eviction.md), maxConnectionSets (int 1..1024, default 32: connection sets calls
     *        overlapping in coroutines or Fibers may open; see docs/guide/coroutines.md);
     *        a combination that cannot work (abortOnLoss without autoExtend, maxExtensions 0 with autoExtend,
     *        fencing with a minority quorum) is a ValueError naming both options
     * @throws ValueError|TypeError on bad arguments, naming the argument and the server or option
     * @see docs/guide/README.md
     */
    public function __construct(#[\SensitiveParameter] array $servers, int $retryDelay = 200, int $retryCount = 3, array $options = []) {}

    /**
     * A Redlock over one Redis Cluster's masters: one member per master (at least 3), member i's keys
     * carrying a hash tag whose slot master i owns; a quorum of masters decides. The placement follows
     * resharding and failover; a vote counts only while its slot stayed on the master that granted it
     * (see docs/guide/cluster.md).
     *
     * @param string|array $seeds a cluster:// or clusters:// URI, "host:port,host:port", a list of
     *        "host:port", or the keyed form (cluster, timeout, username, password, tls)
     * @param int $retryDelay as the constructor's
     * @param int $retryCount as the constructor's
     * @param array $options as the constructor's
     * @throws ValueError|TypeError on bad seeds (naming the seed) or a cluster of fewer than 3 masters
     * @throws RedLockException when no seed answered with a slot map (within the timeout)
     */
    public static function fromCluster(#[\SensitiveParameter] string|array $seeds, int $retryDelay = 200, int $retryCount = 3, array $options = []): RedLock {}

    /**
     * Locks $resource (or a list of names, all or none) for $ttl ms on a majority of the servers. Every $ttl
     * of every call is at least 1 and at most 10^12 ms (about 31.7 years; docs/guide/options.md#upper-bounds).
     *
     * @return array|false ['validity' => float ms left, 'resource' => ..., 'token' => string] (plus 'fence' with
     *         the fencing option), or false when the lock is held elsewhere or too few servers answered
     *         (getLastErrors() says which)
     */
    public function lock(string|array $resource, int $ttl): array|false {}

    /**
     * A counting semaphore: at most $limit holders (1..1024) of $resource at once, across all clients. The
     * $limit slot keys of $resource take at most 1 MiB together (a name of at most 1014 bytes for 1024 slots).
     *
     * @return array|false the lock array with "limit" and "slot", or false when every slot is taken
     */
    public function lockSemaphore(string $resource, int $limit, int $ttl): array|false {}

    /**
     * A shared (read) lock: any number of lockShared() holders at once, never together with a lock() holder.
     *
     * @return array|false the lock array with "shared" => true, or false when a lock() holder has it
     */
    public function lockShared(string $resource, int $ttl): array|false {}

    /**
     * Turns a lockShared() holder into an exclusive lock (fenced with the fencing option), on every server where it is the
     * only reader left; the retries, waitTimeout and renewal of lock(). Two readers never both succeed.
     *
     * @return array|false the lock() array of the new lock (a new token; $lock is then gone), or false while other
     *         readers hold the resource or too few servers answered: $lock is still held (validity() says how long)
     */
    public function promote(array $lock, int $ttl): array|false {}

    /**
     * Turns a lock() of one resource into a shared holder, so that other readers may join. One attempt.
     *
     * @return array|false the lockShared() array of the new holder (a new token; $lock is then gone), or false when
     *         the lock was lost or too few servers answered: then nothing is held, $lock included
     */
    public function demote(array $lock, int $ttl): array|false {}

    /** Releases a lock this or another object took (any array lock() and its kinds returned); true when a majority released it. */
    public function unlock(array $lock): bool {}

    /** Deletes the resource's key(s) on every server whoever holds them (an administrative release, as
     * Laravel's forceRelease()); waiters are woken. True when a quorum did. Semaphore slots are not touched. */
    public function forceUnlock(string|array $resource): bool {}

    /**
     * Gives a lock still held at least $ttl ms more on every server that holds it (never less).
     *
     * @return array|false the lock array with its new validity, or false when the lock is lost, expired, or over
     *         maxExtensions
     */
    public function extend(array $lock, int $ttl): array|false {}

    /** Milliseconds a majority still holds the lock, drift and the time asked subtracted (a lower bound), or false when it is not held. */
    public function validity(array $lock): float|false {}

    /**
     * Who holds $resource, read from a quorum of servers in one round trip (per resource) without taking it and
     * without scripts: held, kind ("exclusive", "shared", "semaphore", null when free), holders (readers, slots
     * used; 1 for an exclusive lock), ttl (ms the deciding quorum still holds it, drift taken off as validity()
     * does; null when free or for a semaphore), fence (the resource's last fencing token, null when never fenced)
     * and servers (how many answered). Semaphore slots are read only with its $limit. Null without a quorum of
     * answers. Advisory: it can change the moment after.
     *
     * @see docs/guide/inspect.md
     */
    public function inspect(string|array $resource, int $limit = 0): ?array {}

    /** inspect()'s "held": true when a quorum holds $resource (any kind), null without a quorum of answers. Advisory. */
    public function isLocked(string|array $resource): ?bool {}

    /**
     * Locks $resource, calls $fn(array $lock, RedLock $redlock) and returns what it returns; the lock is released
     * in every case (return, exception, exit, fatal error, time limit).
     *
     * @throws RedLockException when the lock cannot be had ($fn is not called), or after $fn when the lock was lost
     *         while it ran (with abortOnLoss, inside $fn as soon as the loss is known)
     */
    public function run(string|array $resource, int $ttl, callable $fn): mixed {}

    /**
     * Registers $observer (null: none), called with one array per public call of this object (lock(), lockShared(),
     * lockSemaphore(), run()'s acquisition and release, unlock(), extend(), validity(), forceUnlock()) after its
     * result is known and before it returns: call, kind, resource, outcome, attempts, waited_ms, validity_ms,
     * servers (each server's vote and ms), renewals and lost (seen by the renewal thread since the last call).
     * What it throws is swallowed and counted in metrics()['observer_errors']; calls it makes on this object are
     * not observed.
     *
     * @see docs/guide/telemetry.md
     */
    public function setObserver(?callable $observer): void {}

    /**
     * The per-process counters of every RedLock object (also in phpinfo()): acquired, contended, failed, released,
     * extended, lost, renewals, observer_errors; wait_ms (buckets: cumulative counts by upper bound in ms, "+Inf",
     * sum, count); server_errors (per "host:port": connect, timeout, io, error).
     *
     * @see docs/guide/telemetry.md
     */
    public static function metrics(): array {}

    /** Per server, in constructor order: null for a yes vote, or why the last call got none there ("taken", "timeout", "connect: ...", the server's own error). */
    public function getLastErrors(): array {}

    /** Per server, in constructor order: null, or a warning about it that no vote shows: its maxmemory-policy can
     *  evict lock keys ("maxmemory-policy allkeys-lru can evict lock keys"), or it refused to say ("maxmemory-policy
     *  unknown: CONFIG GET and INFO refused"). Learnt on each connection's first use; null until then.
     *  @see docs/guide/eviction.md */
    public function getServerWarnings(): array {}
}

/**
 * The test double's control. memory://NAME servers (new RedLock(['memory://a', 'memory://b', 'memory://c'])) are
 * served inside this process: no Redis, the same API, lock arrays and errors, every lock kind. Their keys expire
 * on a clock the test moves, and they fail on demand.
 *
 * @see docs/guide/testing-your-code.md
 */
final class RedLockMemory
{
    /** Moves the test clock $ms (>= 0) forward: the memory servers' keys expire, and the extension's own clock
     *  (validity(), renewals, deadlines) sees the time pass. An Error while a RedLock object on other servers
     *  exists (their leases would run out early); such an object is refused while the clock is moved. */
    public static function advance(int $ms): void {}

    /** Makes memory server $server ("memory://a" or "a") fail: "refuse" (connections refused, open ones
     *  closed), "silent" (never answers: the server's timeout bounds each call), "error" (answers every
     *  command with an error). */
    public static function fail(string $server, string $how = "refuse"): void {}

    /** Brings memory server $server back; its keys are as it left them. */
    public static function recover(string $server): void {}

    /** Every memory server emptied and up, the test clock back to the real one. */
    public static function reset(): void {}

    /** @return array<string, int> the live keys of memory server $server: name => ms left (-1: no expiry) */
    public static function keys(string $server): array {}
}

/** Thrown by RedLock::run() when the lock cannot be acquired. */
class RedLockException extends RuntimeException
{
}
