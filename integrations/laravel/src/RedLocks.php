<?php

declare(strict_types=1);

namespace RedLock\Laravel;

/**
 * The RedLock objects of one store, so that Laravel's timing holds whatever the options say:
 * get() is one attempt (retryCount 1, no waitTimeout: Laravel's stores try once), and block($s)
 * waits through waiting(): a RedLock whose waitTimeout is cut at what is left of the $s seconds.
 * Connections are pooled (the extension's persistent connections), so a waiting object costs no
 * connect once the first one was made.
 */
final class RedLocks
{
    private \RedLock $attempts;
    private ?int $waitTimeout;

    /**
     * @param array $options RedLock's options; 'waitTimeout' (ms) is what block() may wait in one
     *                       go, woken by the holder's release, never past block()'s own deadline
     */
    public function __construct(#[\SensitiveParameter] private array $servers, private int $retryDelay = 200, private array $options = [])
    {
        $this->waitTimeout = $options['waitTimeout'] ?? null;
        unset($this->options['waitTimeout']);
        // waitTimeout 0: one attempt that never waits, and whose releases announce themselves to
        // waiters (on Redis >= 8.4 only objects with waitTimeout release by script)
        $this->attempts = new \RedLock($servers, $retryDelay, 1, $this->waitTimeout === null ? $this->options : ['waitTimeout' => 0] + $this->options);
        if ($this->waitTimeout !== null) {
            $this->waiting(1); // a bad waitTimeout is the extension's ValueError now, not in block()
        }
    }

    /** The RedLock that makes single attempts, releases, extends and reads validity. */
    public function attempts(): \RedLock
    {
        return $this->attempts;
    }

    /** The 'waitTimeout' option in ms; null or 0: block() pauses between attempts as Laravel's own loop does. */
    public function waitTimeout(): ?int
    {
        return $this->waitTimeout;
    }

    /** A RedLock whose lock() waits for a release at most min($ms, waitTimeout) ms. */
    public function waiting(int $ms): \RedLock
    {
        $wait = max(0, min($ms, (int) $this->waitTimeout));

        return new \RedLock($this->servers, $this->retryDelay, 1, ['waitTimeout' => $wait] + $this->options);
    }

    /**
     * getLastErrors() entries that are no server's failure: held by another, decided without that
     * server, and a wait (waitTimeout) that ended while an attempt was on its way.
     */
    private const NOT_FAILURES = [null, 'taken', 'no reply needed', "timeout: the call's deadline passed"];

    /**
     * After a lock() (or unlock(), forceUnlock(): $action) of $redlock returned false: throws when the servers could not decide, that is
     * when those that could not answer (refused, timed out, errors) leave too few to make a majority
     * (php-lock's DistributedMutex draws the line there too). Otherwise it is contention, false:
     * "taken" votes, servers the call did not wait for ("no reply needed": the extension stops at
     * one "taken" and one error of three, so the extension's own outcome can say "failed" for a held
     * lock with one server down), a wait that ended, a lock won too late.
     *
     * @throws LockServersUnavailableException
     */
    public function failUnlessDecided(\RedLock $redlock, string $name, string $action = 'acquire'): void
    {
        $errors = $redlock->getLastErrors();
        $count = count($errors);
        $quorum = (int) ($this->options['quorum'] ?? intdiv($count, 2) + 1);
        $failed = count(array_filter($errors, static fn ($e) => !in_array($e, self::NOT_FAILURES, true)));
        if ($count - $failed >= $quorum) {
            return;
        }
        $parts = [];
        foreach ($errors as $i => $e) {
            $parts[] = "server $i: " . ($e ?? 'ok');
        }
        throw new LockServersUnavailableException(sprintf(
            'Could not %s the "%s" lock: too few lock servers answered to decide (%d of %d needed; %s)',
            $action, $name, $quorum, $count, implode('; ', $parts)
        ), $errors);
    }

    public function __debugInfo(): array
    {
        return ['redlock' => $this->attempts, 'waitTimeout' => $this->waitTimeout]; // never the credentials
    }
}
