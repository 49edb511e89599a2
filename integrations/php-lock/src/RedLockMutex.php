<?php

declare(strict_types=1);

namespace RedLock\PhpLock;


/**
 * A php-lock/lock mutex over the redlock extension, for the library's 2.x (malkusch\lock) and 3.x
 * (Malkusch\Lock): the library's RedisMutex contract (the key its RedisMutex uses, "lock_<name>" on
 * 2.x and "php-malkusch-lock:<name>" on 3.x: keyOf(), a lease of $timeout + 1 seconds, up to $timeout seconds to acquire it, and the
 * code expected to finish within $timeout seconds), with the extension asking every server at once
 * and waking on a release when the RedLock object has 'waitTimeout'.
 *
 *     $mutex = RedLockMutex::fromServers($servers, 'balance', 3, ['waitTimeout' => 3000]);
 *     $mutex->synchronized(fn () => $account->withdraw(10));
 *
 * - The mutex's timeout bounds every wait when the mutex builds its RedLocks (fromServers()): each
 *   attempt is one (retryCount 1), and with 'waitTimeout' each wait for a release is a RedLock whose
 *   waitTimeout is cut at what is left of the $timeout seconds. Given a RedLock object instead, the
 *   mutex cannot shorten what that object's lock() does (its retries, its waitTimeout): one call
 *   may end past the timeout; give it retryCount 1 and a waitTimeout no longer than the timeout.
 * - The lock cannot be had within $timeout seconds: the library's timeout exception
 *   (TimeoutException on 2.x, LockAcquireTimeoutException on 3.x), as its mutexes throw.
 * - Fewer than a majority of servers (or fromServers()' 'quorum' option) answered (down, refused, timed out): LockAcquireException
 *   with the library's code for it (REDIS_NOT_ENOUGH_SERVERS on 2.x, CODE_REDLOCK_NOT_ENOUGH_SERVERS
 *   on 3.x), as its RedisMutex (2.x) and DistributedMutex (3.x), with what each server said.
 * - The code ran longer than $timeout seconds (counted from when the lock was won: a wait for the
 *   holder's release is not counted): the lock is released all the same (a release of a
 *   lock that ran out touches nobody else's), then ExecutionOutsideLockException.
 * - The release did not reach a majority: LockReleaseException.
 */
final class RedLockMutex extends LockMutexBase
{
    /** The library's RedisMutex key prefix: 2.x "lock_", 3.x LockUtil::getKeyPrefix() . ':'. */
    private const PREFIX = [2 => 'lock_', 3 => 'php-malkusch-lock:'];

    /**
     * getLastErrors() entries that are no server's failure: held by another, decided without that
     * server, and a wait (waitTimeout) that ended while an attempt was on its way.
     */
    private const NOT_FAILURES = ['taken', 'no reply needed', "timeout: the call's deadline passed"];

    /** @var array{validity: float, resource: string, token: string}|null */
    private ?array $lock = null;

    private float $acquiredAt = 0.0;

    private string $key;

    /** What fromServers() was given, to build waiting RedLocks; null for a RedLock object given. */
    private ?array $servers = null;
    private ?int $waitTimeout = null;
    private int $retryDelay = 200;
    private array $options = [];

    public function __construct(private \RedLock $redlock, string $name, private int $timeout = 3)
    {
        if ($timeout < 1) {
            throw new \ValueError(sprintf('%s(): Argument #3 ($timeout) must be at least 1 second, %d given', __METHOD__, $timeout));
        }
        $this->key = self::keyOf($name);
    }

    /** The key the mutex of $name locks, as the loaded library's RedisMutex names it. */
    public static function keyOf(string $name): string
    {
        return self::PREFIX[self::LIBRARY_MAJOR] . $name;
    }

    /** An exception of the loaded library's major: $short is its class name under Exception\. */
    private static function libraryException(string $short, string $message, int $code = 0): \Exception
    {
        $class = (self::LIBRARY_MAJOR === 3 ? 'Malkusch\\Lock\\Exception\\' : 'malkusch\\lock\\exception\\') . $short;

        return new $class($message, $code);
    }

    /**
     * A mutex over RedLocks it builds from RedLock's own arguments, so that $timeout bounds every
     * wait: one attempt at a time, and with 'waitTimeout' (ms) waits woken by the holder's release,
     * each cut at the deadline. Bad arguments are RedLock's ValueError or TypeError.
     */
    public static function fromServers(#[\SensitiveParameter] array $servers, string $name, int $timeout = 3, array $options = [], int $retryDelay = 200): self
    {
        $waitTimeout = $options['waitTimeout'] ?? null;
        unset($options['waitTimeout']);
        // waitTimeout 0: one attempt that never waits, whose releases announce themselves to waiters
        $mutex = new self(new \RedLock($servers, $retryDelay, 1, $waitTimeout === null ? $options : ['waitTimeout' => 0] + $options), $name, $timeout);
        [$mutex->servers, $mutex->waitTimeout, $mutex->retryDelay, $mutex->options] = [$servers, $waitTimeout, $retryDelay, $options];
        if ($waitTimeout !== null) {
            $mutex->waiting(1); // a bad waitTimeout is RedLock's ValueError now, not in synchronized()
        }

        return $mutex;
    }

    protected function lock(): void
    {
        $deadline = microtime(true) + $this->timeout;
        $pause = 100;
        $redlock = $this->redlock;
        for (;;) {
            $lock = $redlock->lock($this->key, ($this->timeout + 1) * 1000);
            if ($lock !== false) {
                // The lease began when the lock was won, not when this attempt began: an attempt of a
                // RedLock with waitTimeout waits for the release first. Its validity says when the
                // lease ends ($timeout + 1 s after it began, less the round trip and drift).
                $this->acquiredAt = microtime(true) + $lock['validity'] / 1000 - ($this->timeout + 1);
                $this->lock = $lock;
                return;
            }
            $this->failIfServersAreMissing($redlock);
            $left = $deadline - microtime(true);
            if ($left <= 0) {
                throw self::LIBRARY_MAJOR === 3
                    ? \Malkusch\Lock\Exception\LockAcquireTimeoutException::create((float) $this->timeout)
                    : \malkusch\lock\exception\TimeoutException::create($this->timeout);
            }
            if ($this->waitTimeout > 0) {
                $redlock = $this->waiting((int) ceil($left * 1000)); // the next attempt waits, up to the deadline
                continue;
            }
            // as the library's Loop: a random pause that grows, never past the deadline
            usleep((int) min($left * 1e6, random_int($pause, 2 * $pause) * 1000));
            $pause = min(2 * $pause, 250);
        }
    }

    /** A RedLock whose lock() waits for a release at most min($ms, waitTimeout) ms (pooled connections). */
    private function waiting(int $ms): \RedLock
    {
        return new \RedLock($this->servers, $this->retryDelay, 1, ['waitTimeout' => min($ms, (int) $this->waitTimeout)] + $this->options);
    }

    protected function unlock(): void
    {
        $lock = $this->lock;
        $this->lock = null;
        $elapsed = microtime(true) - $this->acquiredAt;
        $released = $lock !== null && $this->redlock->unlock($lock);
        if ($elapsed > $this->timeout) {
            throw self::LIBRARY_MAJOR === 3
                ? \Malkusch\Lock\Exception\ExecutionOutsideLockException::create($elapsed, (float) $this->timeout)
                : \malkusch\lock\exception\ExecutionOutsideLockException::create($elapsed, $this->timeout);
        }
        if (!$released) {
            throw self::libraryException('LockReleaseException', 'Failed to release the lock: ' . $this->describeErrors($this->redlock));
        }
    }

    /**
     * A failed lock() is contention unless the servers that failed leave too few for the quorum (a
     * majority, as the library counts it, or fromServers()' 'quorum' option; NOT_FAILURES are none).
     */
    private function failIfServersAreMissing(\RedLock $redlock): void
    {
        $errors = $redlock->getLastErrors();
        $failed = count(array_filter(
            $errors,
            fn (?string $e) => $e !== null && !in_array($e, self::NOT_FAILURES, true)
        ));
        // the 'quorum' option given to fromServers(), else a majority (a RedLock object given does not say its own)
        $quorum = (int) ($this->options['quorum'] ?? intdiv(count($errors), 2) + 1);
        if (count($errors) - $failed < $quorum) {
            throw self::libraryException('LockAcquireException',
                "It's not possible to acquire a lock because at least half of the Redis server are not available: "
                . $this->describeErrors($redlock), self::notEnoughServersCode());
        }
    }

    /** The library's exception code for too few servers: 2.x REDIS_NOT_ENOUGH_SERVERS, 3.x CODE_REDLOCK_NOT_ENOUGH_SERVERS. */
    public static function notEnoughServersCode(): int
    {
        return self::LIBRARY_MAJOR === 3
            ? \Malkusch\Lock\Exception\MutexException::CODE_REDLOCK_NOT_ENOUGH_SERVERS
            : \malkusch\lock\exception\MutexException::REDIS_NOT_ENOUGH_SERVERS;
    }

    private function describeErrors(\RedLock $redlock): string
    {
        $parts = [];
        foreach ($redlock->getLastErrors() as $index => $error) {
            $parts[] = "#$index " . ($error ?? 'ok');
        }
        return implode(', ', $parts);
    }
}
