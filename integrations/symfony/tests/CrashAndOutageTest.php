<?php

declare(strict_types=1);

namespace RedLock\Symfony\Tests;

use PHPUnit\Framework\TestCase;
use RedLock\Symfony\RedLockFactory;
use RedLock\Symfony\RedLockStore;
use Symfony\Component\Lock\Exception\LockConflictedException;
use Symfony\Component\Lock\Key;

/**
 * What a holder's crash and a servers' outage do to others, against what CombinedStore over
 * RedisStores does: a crashed holder's lock is free after the Lock's own ttl (the guide's example,
 * RedLockFactory), and a blocking acquire() waits through servers that do not answer.
 */
final class CrashAndOutageTest extends TestCase
{
    /** Runs $code in a child PHP; returns the process and its output file. */
    private static function child(string $code, string ...$args): array
    {
        $out = tempnam(sys_get_temp_dir(), 'redlock-symfony-child-');
        $proc = proc_open(Servers::phpCommand($code, ...$args), [1 => ['file', $out, 'w'], 2 => ['file', $out, 'a']], $pipes);
        self::assertIsResource($proc);

        return [$proc, $out];
    }

    public function testACrashedHolderFreesTheLockAfterTheLocksOwnTtl(): void
    {
        $resource = uniqid(__FUNCTION__, true);
        // The guide's example, in a process that dies holding a 2 s lock (no release, no destructor).
        [$proc, $out] = self::child(<<<'PHP'
            require $argv[1];
            $factory = new RedLock\Symfony\RedLockFactory(new RedLock\Symfony\RedLockStore(new \RedLock(RedLock\Symfony\Tests\Servers::list(), 0, 1)));
            $lock = $factory->createLock($argv[2], 2.0); // kept: a Lock released on destruction
            echo $lock->acquire() ? 'held' : 'not held';
            posix_kill(getmypid(), SIGKILL);
            PHP, $resource);
        proc_close($proc);
        $crashed = microtime(true);
        $this->assertSame('held', file_get_contents($out));
        unlink($out);

        $lock = (new RedLockFactory(new RedLockStore(Servers::redlock())))->createLock($resource, 10.0);
        $this->assertFalse($lock->acquire(), 'free at once after the crash');
        $deadline = $crashed + 10.0;
        while (!$lock->acquire() && microtime(true) < $deadline) {
            usleep(50000);
        }
        $freedAfter = microtime(true) - $crashed;
        $this->assertTrue($lock->isAcquired(), 'not free 10 s after the crash of a 2 s lock');
        $this->assertLessThan(2.5, $freedAfter, 'the lock outlived its own 2 s ttl');
        $lock->release();
    }

    /** A RedLock with waitTimeout whose wait ends ("the call's deadline passed") found the lock held: no outage. */
    public function testAWaitThatEndsOnAHeldLockIsAConflict(): void
    {
        $resource = uniqid(__FUNCTION__, true);
        $holder = Servers::store();
        $holder->save($held = new Key($resource));
        $store = new RedLockStore(new \RedLock(Servers::list(), 10, 1, ['waitTimeout' => 200]));
        try {
            $store->save(new Key($resource));
            $this->fail('saved a held lock');
        } catch (LockConflictedException $e) {
            $this->addToAssertionCount(1);
        } finally {
            $holder->delete($held);
        }
    }

    public function testABlockingAcquireWaitsThroughServersThatDoNotAnswer(): void
    {
        // One server of three answers (the two others: ports where nothing listens): no majority.
        // CombinedStore's acquire(true) polls on; so does this store's.
        [$proc, $out] = self::child(<<<'PHP'
            require $argv[1];
            $servers = [RedLock\Symfony\Tests\Servers::list()[0], ...RedLock\Symfony\Tests\Servers::down(2)];
            $factory = new RedLock\Symfony\RedLockFactory(new RedLock\Symfony\RedLockStore(new \RedLock($servers, 0, 1)));
            try {
                echo $factory->createLock($argv[2], 5.0)->acquire(true) ? 'acquired' : 'false';
            } catch (\Throwable $e) {
                echo get_class($e), ': ', $e->getMessage();
            }
            PHP, uniqid(__FUNCTION__, true));
        usleep(1500000);
        $running = proc_get_status($proc)['running'];
        proc_terminate($proc, SIGKILL);
        proc_close($proc);
        $said = file_get_contents($out);
        unlink($out);
        $this->assertTrue($running, "acquire(true) stopped with no majority: $said");
        $this->assertSame('', $said);
    }
}
