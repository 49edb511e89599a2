<?php

declare(strict_types=1);

namespace RedLock\Laravel\Tests;

use Illuminate\Cache\CacheManager;
use Illuminate\Config\Repository as Config;
use Illuminate\Container\Container;
use Illuminate\Contracts\Cache\Repository as CacheContract;
use Illuminate\Queue\Middleware\WithoutOverlapping;
use PHPUnit\Framework\TestCase;
use Illuminate\Contracts\Cache\LockTimeoutException;
use RedLock\Laravel\LockServersUnavailableException;
use RedLock\Laravel\RedLockServiceProvider;
use RedLock\Laravel\RedLockStore;

/** The 'redlock' cache store under Laravel's own Cache and Lock classes, on 3 real servers. */
final class RedLockStoreTest extends TestCase
{
    /** @return list<array{string, int, float}> */
    private static function servers(): array
    {
        return \RedLock\Integrations\testServers(3);
    }

    /** $call throws LockServersUnavailableException saying too few servers answered (returned); else fails with $otherwise. */
    private static function assertServersUnavailable(callable $call, string $otherwise): LockServersUnavailableException
    {
        try {
            $call();
        } catch (LockServersUnavailableException $e) {
            self::assertStringContainsString('too few lock servers answered', $e->getMessage(), $otherwise);

            return $e;
        }
        self::fail($otherwise);
    }

    /** A container as a Laravel app has it: config, the cache manager, the provider registered and booted. */
    private static function app(array $store = []): Container
    {
        $app = new Container();
        Container::setInstance($app);
        $app->instance('config', new Config(['cache' => [
            'default' => 'redlock',
            'stores' => ['redlock' => $store + ['driver' => 'redlock', 'servers' => self::servers(), 'retry_delay' => 10, 'retry_count' => 1]],
        ]]));
        $app->singleton('cache', fn ($app) => new CacheManager($app));
        $app->bind(CacheContract::class, fn ($app) => $app['cache']->store());
        $provider = new RedLockServiceProvider($app);
        $provider->register();
        $provider->boot();
        return $app;
    }

    private static function uniqueName(): string
    {
        return uniqid('laravel-', true);
    }

    public function testGetRunsTheCallbackUnderTheLockAndReleasesIt(): void
    {
        $cache = self::app()['cache']->store('redlock');
        $name = self::uniqueName();
        $result = $cache->lock($name, 10)->get(function () use ($cache, $name) {
            return $cache->lock($name, 10)->get() ? 'a second lock got in' : 'alone';
        });
        self::assertSame('alone', $result);
        $again = $cache->lock($name, 10);
        self::assertTrue($again->get(), 'the lock was not released');
        self::assertTrue($again->release());
    }

    public function testOwnerAfterGetReleasesFromAnotherProcessThroughRestoreLock(): void
    {
        $cache = self::app()['cache']->store('redlock');
        $name = self::uniqueName();
        $lock = $cache->lock($name, 30);
        self::assertTrue($lock->get());
        $owner = $lock->owner();
        self::assertMatchesRegularExpression('/^[0-9a-f]{48}$/', $owner);
        $result = tempnam(sys_get_temp_dir(), 'laravel-restore');
        $pid = pcntl_fork();
        if ($pid === 0) { // a queued job in another process
            $released = self::app()['cache']->store('redlock')->restoreLock($name, $owner)->release();
            file_put_contents($result, $released ? 'released' : 'not released');
            posix_kill(getmypid(), SIGKILL); // nothing of PHPUnit's shutdown runs in the child
        }
        pcntl_waitpid($pid, $status);
        self::assertSame('released', file_get_contents($result), 'restoreLock()->release() in the other process');
        unlink($result);
        self::assertTrue($cache->lock($name, 10)->get(), 'still held after the other process released it');
    }

    public function testAnotherOwnerCannotReleaseButForceReleaseCan(): void
    {
        $cache = self::app()['cache']->store('redlock');
        $name = self::uniqueName();
        $lock = $cache->lock($name, 30);
        self::assertTrue($lock->get());
        self::assertFalse($cache->restoreLock($name, 'someone-else')->release());
        self::assertFalse($cache->restoreLock($name, str_repeat('a', 32))->release());
        self::assertFalse($cache->lock($name, 10)->get());
        $cache->lock($name)->forceRelease(); // as a finished ShouldBeUnique job does, without the owner
        $next = $cache->lock($name, 10);
        self::assertTrue($next->get(), 'forceRelease() left the lock');
        self::assertFalse($lock->release(), 'the first owner still released a lock it no longer held');
        self::assertTrue($next->release());
    }

    public function testBlockWaitsForTheHolderAndGivesUpAtItsTimeout(): void
    {
        $cache = self::app(['options' => ['waitTimeout' => 3000]])['cache']->store('redlock');
        $name = self::uniqueName();
        $holder = $cache->lock($name, 30);
        self::assertTrue($holder->get());
        $owner = $holder->owner();
        $pid = pcntl_fork();
        if ($pid === 0) {
            usleep(300000);
            self::app()['cache']->store('redlock')->restoreLock($name, $owner)->release();
            posix_kill(getmypid(), SIGKILL);
        }
        $start = microtime(true);
        $result = $cache->lock($name, 10)->block(5, fn () => 'got it');
        $waited = microtime(true) - $start;
        pcntl_waitpid($pid, $status);
        self::assertSame('got it', $result);
        self::assertGreaterThan(0.2, $waited);
        self::assertLessThan(1.0, $waited, 'woken by the release (waitTimeout), not by a 250 ms poll after a wait');

        $blocked = $cache->lock($name . '-held', 30);
        self::assertTrue($blocked->get());
        $start = microtime(true);
        try {
            self::app()['cache']->store('redlock')->lock($name . '-held', 10)->block(1);
            self::fail('no LockTimeoutException');
        } catch (\Illuminate\Contracts\Cache\LockTimeoutException $e) {
            // Laravel 8 counts block()'s seconds with time(): anywhere from one 250 ms pause to 2 s
            self::assertGreaterThanOrEqual(0.2, microtime(true) - $start);
            self::assertLessThan(2.5, microtime(true) - $start);
        }
        $blocked->release();
    }

    public function testBlockWithAWaitTimeoutOfZeroPausesBetweenAttempts(): void
    {
        $cache = self::app(['options' => ['waitTimeout' => 0]])['cache']->store('redlock');
        $name = self::uniqueName();
        self::assertTrue($cache->lock($name, 30)->get());
        $before = \RedLock::metrics()['contended'];
        try {
            $cache->lock($name, 10)->block(1);
            self::fail('no LockTimeoutException');
        } catch (\Illuminate\Contracts\Cache\LockTimeoutException $e) {
            // 250 ms apart: about 5 attempts in the second, not a loop of thousands
            self::assertLessThan(20, \RedLock::metrics()['contended'] - $before);
        }
    }

    public function testProcessesContendingThroughBlockNeverLoseAnUpdate(): void
    {
        $name = self::uniqueName();
        $count = \RedLock\Integrations\countInForkedProcesses(function (callable $increment) use ($name): void {
            static $cache;
            $cache ??= self::app(['options' => ['waitTimeout' => 2000]])['cache']->store('redlock');
            $cache->lock($name, 5)->block(10, $increment);
        });
        self::assertSame('60', $count, 'null: a child did not finish in 60 s');
    }

    public function testRefreshExtendsALockStillHeld(): void
    {
        $cache = self::app()['cache']->store('redlock');
        $lock = $cache->lock(self::uniqueName(), 1);
        self::assertTrue($lock->get());
        self::assertTrue($lock->refresh(30));
        usleep(1200000); // past the first second: refreshed, so still ours
        self::assertTrue($lock->release());
        self::assertFalse($lock->refresh(), 'a released lock was refreshed');
    }

    public function testWithoutOverlappingMiddlewareRunsAJobOnceAtATime(): void
    {
        self::app();
        $job = new class {
            public $released = null;
            public function release($delay)
            {
                $this->released = $delay;
            }
        };
        $middleware = new WithoutOverlapping('order-42', 5, 30);
        $ran = [];
        $middleware->handle($job, function () use ($middleware, $job, &$ran) {
            $ran[] = 'outer';
            $middleware->handle($job, function () use (&$ran) {
                $ran[] = 'inner'; // must not run: the same job key is locked
            });
        });
        self::assertSame(['outer'], $ran);
        self::assertSame(5, $job->released, 'the overlapping job was not released back to the queue');
        $middleware->handle($job, function () use (&$ran) {
            $ran[] = 'after';
        });
        self::assertSame(['outer', 'after'], $ran, 'the lock was not released after the job');
    }

    public function testValueCallsAreRefusedWithAClearMessage(): void
    {
        $cache = self::app()['cache']->store('redlock');
        $this->expectException(\BadMethodCallException::class);
        $this->expectExceptionMessage('The redlock cache store holds only locks: get() has no value to work on');
        $cache->get('anything');
    }

    public function testServerTroubleThrowsAndBadSettingsAreTheExtensionsErrors(): void
    {
        $servers = self::servers();
        $servers[1] = ['127.0.0.1', 1, 0.2];
        $servers[2] = ['127.0.0.1', 9, 0.2];
        $cache = self::app(['servers' => $servers])['cache']->store('redlock');
        try {
            $cache->lock(self::uniqueName(), 10)->get();
            self::fail('get() with 2 of 3 servers refusing did not throw');
        } catch (LockServersUnavailableException $e) {
            self::assertStringStartsWith('connect: ', $e->getErrors()[1]);
            self::assertStringContainsString('too few lock servers answered to decide (2 of 3 needed; server 0: ', $e->getMessage());
        }
        self::assertStringStartsWith('connect: ', $cache->getStore()->redlock()->getLastErrors()[1]);

        try {
            self::app(['values' => 'redlock'])['cache']->store('redlock');
            self::fail('a redlock store kept its values in itself');
        } catch (\ValueError $e) {
            self::assertStringContainsString("'values' must name a store of another driver", $e->getMessage());
        }

        $this->expectException(\ValueError::class);
        $this->expectExceptionMessage('RedLock::__construct(): Argument #4 ($options) ');
        self::app(['options' => ['noSuchOption' => 1]])['cache']->store('redlock');
    }

    /**
     * No majority can be had (2 of 3 servers refuse): get(), block() (at once, not at its deadline),
     * UniqueLock::acquire() (a ShouldBeUnique dispatch) and the scheduler's mutexes throw
     * LockServersUnavailableException, as Laravel's Redis store throws RedisException; before, all
     * were false (block(): LockTimeoutException after its 2 s) and a unique job was silently not queued.
     * A lock held elsewhere stays false, also with one server down (2 "taken" leave no majority).
     */
    public function testAnOutageThrowsWhereAHeldLockIsFalse(): void
    {
        $servers = self::servers();
        $down = $servers;
        $down[1] = ['127.0.0.1', 1, 0.2];
        $down[2] = ['127.0.0.1', 9, 0.2];
        $app = self::app(['servers' => $down]);
        $cache = $app['cache']->store('redlock');
        $start = microtime(true);
        foreach (['get' => fn () => $cache->lock(self::uniqueName(), 10)->get(),
            'get($callback)' => fn () => $cache->lock(self::uniqueName(), 10)->get(fn () => self::fail('ran without the lock')),
            'block(2)' => fn () => $cache->lock(self::uniqueName(), 10)->block(2),
            'UniqueLock::acquire()' => fn () => (new \Illuminate\Bus\UniqueLock($cache))->acquire(new class () implements \Illuminate\Contracts\Queue\ShouldBeUnique {
                public $uniqueId = 'outage';
            }),
        ] as $what => $call) {
            self::assertServersUnavailable($call, "$what returned with no majority of servers");
        }
        self::assertLessThan(1.5, microtime(true) - $start, 'block(2) waited for its deadline instead of throwing');
        foreach ([new \RedLock\Laravel\Scheduling\LockSchedulingMutex($app['cache']), new \RedLock\Laravel\Scheduling\LockEventMutex($app['cache'])] as $mutex) {
            $event = new \Illuminate\Console\Scheduling\Event(new \Illuminate\Console\Scheduling\CacheEventMutex($app['cache']), 'true');
            self::assertServersUnavailable(
                fn () => $mutex instanceof \Illuminate\Console\Scheduling\SchedulingMutex ? $mutex->create($event, new \DateTime()) : $mutex->create($event),
                get_class($mutex) . '::create() returned with no majority of servers'
            );
        }

        // contention stays false: held on the two live servers of [live, live, down]
        $name = self::uniqueName();
        $oneDown = $servers;
        $oneDown[2] = ['127.0.0.1', 1, 0.2];
        $holder = self::app()['cache']->store('redlock')->lock($name, 10);
        self::assertTrue($holder->get());
        $other = self::app(['servers' => $oneDown])['cache']->store('redlock');
        self::assertFalse($other->lock($name, 10)->get(), 'a held lock with one server down');
        self::assertContains('taken', $other->getStore()->redlock()->getLastErrors());
        $start = microtime(true);
        try {
            $other->lock($name, 10)->block(0.3);
            self::fail('block() got a held lock');
        } catch (LockTimeoutException $e) {
            self::assertGreaterThanOrEqual(0.29, microtime(true) - $start);
        }
        $holder->release();
    }

    /**
     * A release the servers could not confirm (2 of 3 unreachable) throws, as Laravel's Redis store
     * throws RedisException, instead of passing silently: forceRelease() is what a finished
     * ShouldBeUnique job calls, and a unique lock left behind silently drops every later dispatch
     * until it expires; release() is what WithoutOverlapping calls. The lock is still held after.
     */
    public function testAReleaseTheServersCouldNotConfirmThrows(): void
    {
        $servers = self::servers();
        $down = $servers;
        $down[1] = ['127.0.0.1', 1, 0.2];
        $down[2] = ['127.0.0.1', 9, 0.2];
        $name = self::uniqueName();
        $live = self::app()['cache']->store('redlock');
        $lock = $live->lock($name, 10);
        self::assertTrue($lock->get());
        $outage = self::app(['servers' => $down])['cache']->store('redlock');
        foreach (['forceRelease()' => fn () => $outage->lock($name, 10)->forceRelease(),
            'release()' => fn () => $outage->restoreLock($name, $lock->owner())->release(),
        ] as $what => $call) {
            $e = self::assertServersUnavailable($call, "$what passed with 2 of 3 servers unreachable");
            self::assertStringStartsWith('connect: ', $e->getErrors()[1], $what);
        }
        self::assertFalse($live->lock($name, 10)->get(), 'the lock is still held');
        // with the servers up: another owner's release() stays false, forceRelease() works
        self::assertFalse($live->restoreLock($name, 'someone-else')->release());
        $live->lock($name, 10)->forceRelease();
        self::assertTrue($live->lock($name, 10)->get());
        $live->lock($name)->forceRelease();
    }

    /**
     * The lock keys carry the cache prefix exactly as Laravel's own Redis lock names its key: the
     * RedisStore of the Laravel that runs is asked (Laravel 8-10 "app_cache_:report", 11+ "app_cache_report").
     */
    public function testTheLockKeyIsTheOneLaravelsRedisLockWouldWrite(): void
    {
        $cache = self::app(['prefix' => 'app_cache_'])['cache']->store('redlock');
        $name = self::uniqueName();
        $fake = new class () implements \Illuminate\Contracts\Redis\Factory {
            public function connection($name = null)
            {
                return new \stdClass();
            }
        };
        $redisLock = (new \Illuminate\Cache\RedisStore($fake, 'app_cache_'))->lock($name, 10);
        $laravelsKey = (new \ReflectionProperty($redisLock, 'name'))->getValue($redisLock);
        if (class_exists(\Illuminate\Foundation\Application::class)) {
            $major = (int) \Illuminate\Foundation\Application::VERSION;
            self::assertSame($major >= 11 ? "app_cache_$name" : "app_cache_:$name", $laravelsKey, 'Laravel ' . \Illuminate\Foundation\Application::VERSION);
        }
        $lock = $cache->lock($name, 10);
        self::assertTrue($lock->get());
        $redis = new \Redis();
        [$host, $port] = self::servers()[0];
        $redis->connect($host, $port);
        self::assertSame(1, $redis->exists($laravelsKey), "the lock is not under Laravel's key $laravelsKey");
        $lock->release();
    }

    /**
     * refresh($seconds) shorter than what the servers hold: true, and the servers keep the longer ttl
     * (RedLock::extend() never shortens a lock). Laravel 12.63+/13.16+'s RedisLock sets the shorter
     * ttl; docs/guide/laravel.md says so. A longer one is set.
     */
    public function testRefreshNeverShortensTheLockOnTheServers(): void
    {
        $cache = self::app(['prefix' => ''])['cache']->store('redlock');
        $name = self::uniqueName();
        $lock = $cache->lock($name, 30);
        self::assertTrue($lock->get());
        self::assertTrue($lock->refresh(2));
        $redis = new \Redis();
        [$host, $port] = self::servers()[0];
        $redis->connect($host, $port);
        self::assertGreaterThan(25000, $redis->pttl($name), 'refresh(2) shortened the lock');
        self::assertTrue($lock->refresh(60));
        self::assertGreaterThan(55000, $redis->pttl($name), 'refresh(60) did not lengthen it');
        $lock->release();
    }

    /** ShouldBeUnique with uniqueVia(): Laravel's UniqueLock acquires, the worker force-releases after the job. */
    public function testShouldBeUniqueJobsPointedAtTheStore(): void
    {
        $app = self::app();
        $cache = $app['cache']->store('redlock');
        $job = new class () implements \Illuminate\Contracts\Queue\ShouldBeUnique {
            public $uniqueFor = 60;
            public $uniqueId;

            public function uniqueVia()
            {
                return Container::getInstance()->make('cache')->store('redlock');
            }
        };
        $job->uniqueId = self::uniqueName();
        $unique = new \Illuminate\Bus\UniqueLock($cache);
        self::assertTrue($unique->acquire($job));
        self::assertFalse($unique->acquire($job), 'a second dispatch while the first is queued');
        // what the worker's CallQueuedHandler does once the job ran (a protected method), without the owner
        $handler = new \Illuminate\Queue\CallQueuedHandler(new \Illuminate\Bus\Dispatcher($app), $app);
        (new \ReflectionMethod($handler, 'ensureUniqueJobLockIsReleased'))->invoke($handler, $job);
        self::assertTrue($unique->acquire($job), 'not dispatchable again after the job ran');
        (new \ReflectionMethod($handler, 'ensureUniqueJobLockIsReleased'))->invoke($handler, $job);
    }
}
