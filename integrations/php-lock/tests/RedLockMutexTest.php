<?php

declare(strict_types=1);

namespace RedLock\PhpLock\Tests;

use RedLock\PhpLock\Tests\Library\AcquireException as LockAcquireException;
use RedLock\PhpLock\Tests\Library\OutsideException as ExecutionOutsideLockException;
use RedLock\PhpLock\Tests\Library\TimeoutException;
use PHPUnit\Framework\TestCase;
use RedLock\PhpLock\RedLockMutex;

/** RedLockMutex under php-lock/lock's own synchronized() and check()->then(), on 3 real servers. */
final class RedLockMutexTest extends TestCase
{
    /**
     * The library's own timeout message: "Timeout of 1 seconds exceeded." in 2.2, "... 1.0 seconds exceeded"
     * in 2.3, "Lock acquire timeout of 1.0 seconds has been exceeded" in 3.x (LockAcquireTimeoutException).
     */
    private const TIMEOUT_MESSAGE = '/^(Timeout of 1(\.0)? seconds exceeded\.?|Lock acquire timeout of 1\.0 seconds has been exceeded)$/';

    /** $mutex's synchronized() ends in the library's TimeoutException (with its message), the code never run. */
    private static function assertTimesOut(RedLockMutex $mutex): void
    {
        try {
            $mutex->synchronized(fn () => self::fail('ran while another client held the lock'));
        } catch (TimeoutException $e) {
            self::assertMatchesRegularExpression(self::TIMEOUT_MESSAGE, $e->getMessage());

            return;
        }
        self::fail('no TimeoutException');
    }

    /** The same, while another client holds $name's lock (given back after). */
    private static function assertTimesOutWhileHeld(string $name, RedLockMutex $mutex): void
    {
        $holder = new \RedLock(self::servers(), 10, 1);
        $held = $holder->lock(RedLockMutex::keyOf($name), 10000);
        self::assertIsArray($held);
        try {
            self::assertTimesOut($mutex);
        } finally {
            $holder->unlock($held);
        }
    }

    /** Forks a child that releases $held (of $holder) after $microseconds and dies without PHPUnit's shutdown; its pid. */
    private static function releaseLater(\RedLock $holder, array $held, int $microseconds): int
    {
        $pid = pcntl_fork();
        if ($pid === 0) {
            usleep($microseconds);
            $holder->unlock($held);
            posix_kill(getmypid(), SIGKILL); // nothing of PHPUnit's shutdown runs in the child
        }
        return $pid;
    }

    /**
     * The mutex $newMutex makes (after the fork) runs its code while a child releases $held 300 ms in: woken by
     * the release, after 0.2 s and within 1 s ($why).
     */
    private static function assertWokenByTheRelease(\RedLock $holder, array $held, callable $newMutex, string $why): void
    {
        $pid = self::releaseLater($holder, $held, 300000);
        $mutex = $newMutex();
        $start = microtime(true);
        self::assertSame(7, $mutex->synchronized(fn () => 7));
        $waited = microtime(true) - $start;
        pcntl_waitpid($pid, $status);
        self::assertGreaterThan(0.2, $waited);
        self::assertLessThan(1.0, $waited, $why);
    }

    /** @return list<array{string, int, float}> */
    private static function servers(): array
    {
        return \RedLock\Integrations\testServers(3);
    }

    private static function uniqueName(): string
    {
        return uniqid('php-lock-', true);
    }

    /** keyOf() is the key the loaded library's own Redis mutex locks ("lock_<name>" on 2.x, "php-malkusch-lock:<name>" on 3.x). */
    public function testTheKeyIsTheLibrarysRedisMutexKey(): void
    {
        $name = self::uniqueName();
        if (RedLockMutex::LIBRARY_MAJOR === 3) {
            $own = new \Malkusch\Lock\Mutex\RedisMutex(new \stdClass(), $name);
            $key = (new \ReflectionProperty(\Malkusch\Lock\Mutex\AbstractSpinlockMutex::class, 'key'))->getValue($own);
            self::assertSame("php-malkusch-lock:$name", $key);
        } else {
            $own = new \malkusch\lock\mutex\PHPRedisMutex([new \stdClass()], $name);
            $key = (new \ReflectionProperty(\malkusch\lock\mutex\SpinlockMutex::class, 'key'))->getValue($own);
            self::assertSame("lock_$name", $key);
        }
        self::assertSame($key, RedLockMutex::keyOf($name));
    }

    public function testSynchronizedRunsTheCodeUnderTheLockAndReleasesIt(): void
    {
        $name = self::uniqueName();
        $other = new \RedLock(self::servers(), 10, 1);
        $mutex = new RedLockMutex(new \RedLock(self::servers()), $name, 2);
        $heldInside = null;
        $result = $mutex->synchronized(function () use ($other, $name, &$heldInside) {
            $heldInside = $other->lock(RedLockMutex::keyOf($name), 1000) === false; // the library's key
            return 42;
        });
        self::assertSame(42, $result);
        self::assertTrue($heldInside, 'another client got the key while the code ran');
        $after = $other->lock(RedLockMutex::keyOf($name), 1000);
        self::assertIsArray($after, 'the lock was not released');
        $other->unlock($after);
    }

    public function testASecondMutexTimesOutWhileTheFirstHoldsAndADifferentNameDoesNot(): void
    {
        $name = self::uniqueName();
        $first = new RedLockMutex(new \RedLock(self::servers()), $name, 3);
        $first->synchronized(function () use ($name) {
            $second = new RedLockMutex(new \RedLock(self::servers(), 10, 1), $name, 1);
            $start = microtime(true);
            try {
                $second->synchronized(fn () => self::fail('ran while the first mutex held the lock'));
            } catch (TimeoutException $e) {
                self::assertMatchesRegularExpression(self::TIMEOUT_MESSAGE, $e->getMessage());
            }
            $waited = microtime(true) - $start;
            self::assertGreaterThanOrEqual(0.95, $waited);
            self::assertLessThan(2.5, $waited);
            $elsewhere = new RedLockMutex(new \RedLock(self::servers()), $name . '-other', 1);
            self::assertSame('free', $elsewhere->synchronized(fn () => 'free'));
        });
    }

    public function testCheckThenRunsOnlyWhenTheCheckHoldsUnderTheLock(): void
    {
        $mutex = new RedLockMutex(new \RedLock(self::servers()), self::uniqueName(), 2);
        $balance = 10;
        $ran = $mutex->check(fn () => $balance >= 20)->then(function () use (&$balance) {
            $balance -= 20;
            return 'withdrawn';
        });
        self::assertFalse($ran);
        self::assertSame(10, $balance);
        $ran = $mutex->check(fn () => $balance >= 5)->then(function () use (&$balance) {
            $balance -= 5;
            return 'withdrawn';
        });
        self::assertSame('withdrawn', $ran);
        self::assertSame(5, $balance);
    }

    public function testAnExceptionFromTheCodePropagatesAndTheLockIsReleased(): void
    {
        $name = self::uniqueName();
        $mutex = new RedLockMutex(new \RedLock(self::servers()), $name, 2);
        try {
            $mutex->synchronized(function () {
                throw new \DomainException('from the code');
            });
            self::fail('no exception');
        } catch (\DomainException $e) {
            self::assertSame('from the code', $e->getMessage());
        }
        self::assertSame('again', $mutex->synchronized(fn () => 'again'));
    }

    public function testCodeThatOutlivesTheTimeoutIsReportedAndTheLockReleasedAllTheSame(): void
    {
        $name = self::uniqueName();
        $mutex = new RedLockMutex(new \RedLock(self::servers()), $name, 1);
        try {
            $mutex->synchronized(fn () => usleep(1200000));
            self::fail('no ExecutionOutsideLockException');
        } catch (ExecutionOutsideLockException $e) {
            self::assertMatchesRegularExpression('/But the (expire )?timeout is 1(\\.0)? seconds/', $e->getMessage()); // 2.2 | 2.3 | 3.x
        }
        $other = new \RedLock(self::servers(), 10, 1);
        $lock = $other->lock(RedLockMutex::keyOf($name), 1000);
        self::assertIsArray($lock, 'the lock was left behind');
        $other->unlock($lock);
    }

    public function testTooFewServersIsALockAcquireExceptionNamingEachServer(): void
    {
        $servers = self::servers();
        $servers[1] = ['127.0.0.1', 1, 0.2]; // port 1 and 9: nothing listens, connections are refused
        $servers[2] = ['127.0.0.1', 9, 0.2];
        $mutex = new RedLockMutex(new \RedLock($servers, 10, 1), self::uniqueName(), 1);
        try {
            $mutex->synchronized(fn () => self::fail('ran without a quorum'));
            self::fail('no exception');
        } catch (LockAcquireException $e) {
            self::assertSame(RedLockMutex::notEnoughServersCode(), $e->getCode());
            // #0 is "ok" or, when both refusals came first, "no reply needed": the outcome was already decided
            self::assertMatchesRegularExpression('/#0 (ok|no reply needed), #1 connect: .*, #2 connect: /', $e->getMessage());
        }
    }

    public function testOneServerDownAndTheLockHeldElsewhereIsATimeoutNotAMissingQuorum(): void
    {
        // #2 refused and #0 taken decide the outcome; #1 is then "no reply needed", which is no failure:
        // two of three servers are there, so this is contention (the library's TimeoutException).
        $name = self::uniqueName();
        $servers = self::servers();
        $servers[2] = ['127.0.0.1', 1, 0.2];
        self::assertTimesOutWhileHeld($name, new RedLockMutex(new \RedLock($servers, 10, 1), $name, 1));
    }

    public function testOneServerDownIsToleratedAndNeverAnException(): void
    {
        $servers = self::servers();
        $servers[2] = ['127.0.0.1', 1, 0.2]; // port 1: refused
        $mutex = new RedLockMutex(new \RedLock($servers), self::uniqueName(), 1);
        self::assertSame('ok', $mutex->synchronized(fn () => 'ok'));
    }

    public function testATimeoutBelowOneSecondIsAValueError(): void
    {
        $this->expectException(\ValueError::class);
        $this->expectExceptionMessage('Argument #3 ($timeout) must be at least 1 second, 0 given');
        new RedLockMutex(new \RedLock(self::servers()), self::uniqueName(), 0);
    }

    public function testWithWaitTimeoutAWaiterIsWokenByTheRelease(): void
    {
        $name = self::uniqueName();
        $holder = new \RedLock(self::servers(), 10, 1, ['waitTimeout' => 3000]);
        $held = $holder->lock(RedLockMutex::keyOf($name), 10000);
        self::assertIsArray($held);
        // a RedLock with waitTimeout waits inside lock() and wakes on the release's announcement
        self::assertWokenByTheRelease($holder, $held,
            fn () => new RedLockMutex(new \RedLock(self::servers(), 10, 1, ['waitTimeout' => 3000]), $name, 3),
            'woken by the release, not by polling until the ttl');
    }

    public function testTheMutexTimeoutBoundsEveryWaitWhateverWaitTimeout(): void
    {
        $name = self::uniqueName();
        $holder = new \RedLock(self::servers(), 10, 1);
        $held = $holder->lock(RedLockMutex::keyOf($name), 10000);
        self::assertIsArray($held);
        // waitTimeout 3000 and 3 retries, a timeout of 1 s: the TimeoutException comes at 1 s
        $mutex = RedLockMutex::fromServers(self::servers(), $name, 1, ['waitTimeout' => 3000]);
        $start = microtime(true);
        self::assertTimesOut($mutex);
        $waited = microtime(true) - $start;
        self::assertGreaterThan(0.9, $waited);
        self::assertLessThan(1.3, $waited, 'the wait outlived the mutex timeout');

        // and the waits are still woken by the release
        self::assertWokenByTheRelease($holder, $held,
            fn () => RedLockMutex::fromServers(self::servers(), $name, 3, ['waitTimeout' => 3000]), 'woken by the release');
    }

    /**
     * The time spent waiting for the holder's release (waitTimeout) is no time spent holding the lock:
     * code that runs well within $timeout after a long wait is no ExecutionOutsideLockException (the
     * lease of $timeout + 1 s starts when the lock is won, as each attempt of the library's loop).
     */
    public function testTimeSpentWaitingForTheReleaseDoesNotCountAsTimeUnderTheLock(): void
    {
        $name = self::uniqueName();
        $holder = new \RedLock(self::servers(), 10, 1, ['waitTimeout' => 0]);
        $held = $holder->lock(RedLockMutex::keyOf($name), 10000);
        self::assertIsArray($held);
        $pid = self::releaseLater($holder, $held, 1500000);
        $mutex = RedLockMutex::fromServers(self::servers(), $name, 2, ['waitTimeout' => 2000]);
        $start = microtime(true);
        try {
            $result = $mutex->synchronized(function () use ($start) {
                $waited = microtime(true) - $start;
                usleep(700000); // 0.7 s of a 3 s lease, with 1.5 s waited before it
                return $waited;
            });
        } finally {
            pcntl_waitpid($pid, $status);
        }
        self::assertGreaterThan(1.4, $result, 'the mutex did not wait for the release');
    }

    /** A RedLock object given with waitTimeout: its waits end in "the call's deadline passed", which is no server's failure. */
    public function testAWaitTimeoutObjectsWaitThatEndsIsATimeoutNotAMissingQuorum(): void
    {
        $name = self::uniqueName();
        self::assertTimesOutWhileHeld($name, new RedLockMutex(new \RedLock(self::servers(), 10, 1, ['waitTimeout' => 300]), $name, 1));
    }

    public function testFromServersWithAWaitTimeoutOfZeroPausesBetweenAttempts(): void
    {
        $name = self::uniqueName();
        $before = \RedLock::metrics()['contended'];
        self::assertTimesOutWhileHeld($name, RedLockMutex::fromServers(self::servers(), $name, 1, ['waitTimeout' => 0]));
        self::assertLessThan(30, \RedLock::metrics()['contended'] - $before, 'attempts without a pause');
    }

    public function testFromServersReportsTooFewServersAndBadArguments(): void
    {
        $servers = self::servers();
        $servers[1] = ['127.0.0.1', 1, 0.2];
        $servers[2] = ['127.0.0.1', 9, 0.2];
        try {
            RedLockMutex::fromServers($servers, self::uniqueName(), 1, ['waitTimeout' => 500])->synchronized(fn () => null);
            self::fail('no LockAcquireException');
        } catch (LockAcquireException $e) {
            self::assertSame(RedLockMutex::notEnoughServersCode(), $e->getCode());
        }
        $this->expectException(\ValueError::class);
        RedLockMutex::fromServers(self::servers(), self::uniqueName(), 1, ['waitTimeout' => -1]);
    }

    /**
     * With a 'quorum' option of all 3 servers, one server refusing leaves too few to lock: the library's
     * LockAcquireException at once, not a TimeoutException after waiting out the timeout as for contention.
     */
    public function testFromServersCountsMissingServersAgainstTheQuorumOption(): void
    {
        $servers = self::servers();
        $servers[2] = ['127.0.0.1', 1, 0.2]; // refused
        $start = microtime(true);
        try {
            RedLockMutex::fromServers($servers, self::uniqueName(), 2, ['quorum' => 3])->synchronized(fn () => self::fail('ran without the quorum'));
            self::fail('no exception');
        } catch (LockAcquireException $e) {
            self::assertSame(RedLockMutex::notEnoughServersCode(), $e->getCode());
            self::assertStringContainsString('#2 connect: ', $e->getMessage());
        }
        self::assertLessThan(1.5, microtime(true) - $start, 'waited out the timeout as for a held lock');
    }

    public function testProcessesContendingThroughSynchronizedNeverLoseAnUpdate(): void
    {
        $name = self::uniqueName();
        $count = \RedLock\Integrations\countInForkedProcesses(function (callable $increment) use ($name): void {
            static $mutex;
            $mutex ??= new RedLockMutex(new \RedLock(self::servers(), 10, 1), $name, 5);
            $mutex->synchronized($increment);
        });
        self::assertSame('60', $count, 'null: a child did not finish in 60 s');
    }
}
