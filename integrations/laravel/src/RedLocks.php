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

    public function __debugInfo(): array
    {
        return ['redlock' => $this->attempts, 'waitTimeout' => $this->waitTimeout]; // never the credentials
    }
}
