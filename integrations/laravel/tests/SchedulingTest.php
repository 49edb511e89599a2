<?php

declare(strict_types=1);

namespace RedLock\Laravel\Tests;

use Illuminate\Cache\CacheManager;
use Illuminate\Config\Repository as Config;
use Illuminate\Console\Scheduling\EventMutex;
use Illuminate\Console\Scheduling\Schedule;
use Illuminate\Console\Scheduling\SchedulingMutex;
use Illuminate\Container\Container;
use PHPUnit\Framework\TestCase;
use RedLock\Laravel\RedLockServiceProvider;
use RedLock\Laravel\Scheduling\LockEventMutex;
use RedLock\Laravel\Scheduling\LockSchedulingMutex;

/**
 * Scheduled events' withoutOverlapping() and onOneServer() on the redlock store, through Laravel's own
 * Schedule: Laravel 8's cache mutexes use add()/has(), which a store of locks refuses, so the app binds
 * these two lock-based mutexes (ported from the integrations helper's branch).
 */
final class SchedulingTest extends TestCase
{
    /** A Schedule of an app whose default store is redlock ($ownMutexes: the package's mutexes bound, else Laravel's). */
    private static function schedule(bool $ownMutexes = true): Schedule
    {
        $servers = [];
        foreach (array_slice(explode(',', (string) getenv('REDLOCK_TEST_SERVERS')), 0, 3) as $hostPort) {
            [$host, $port] = explode(':', $hostPort);
            $servers[] = [$host, (int) $port, 1.0];
        }
        $app = new Container();
        Container::setInstance($app);
        $app->instance('config', new Config(['cache' => [
            'default' => $ownMutexes ? 'array' : 'redlock',
            'stores' => ['array' => ['driver' => 'array'], 'redlock' => ['driver' => 'redlock', 'servers' => $servers, 'values' => 'array']],
        ]]));
        $app->singleton('cache', fn ($app) => new CacheManager($app));
        $app->alias('cache', \Illuminate\Contracts\Cache\Factory::class);
        (new RedLockServiceProvider($app))->boot();
        if ($ownMutexes) {
            $app->singleton(EventMutex::class, LockEventMutex::class);
            $app->singleton(SchedulingMutex::class, LockSchedulingMutex::class);
        }

        return new Schedule();
    }

    private static function held(string $name): bool
    {
        $probe = Container::getInstance()->make('cache')->store('redlock')->lock($name, 1);
        if ($probe->get()) {
            $probe->release();
            return false;
        }
        return true;
    }

    public function testWithoutOverlappingTakesTheLockAndForgetsIt(): void
    {
        $event = self::schedule()->exec('true ' . uniqid('', true))->withoutOverlapping(10);
        self::assertInstanceOf(LockEventMutex::class, $event->mutex);
        $name = $event->mutexName();

        self::assertFalse($event->mutex->exists($event));
        self::assertFalse(self::held($name), 'exists() gives back what it took');
        self::assertTrue($event->mutex->create($event));
        self::assertTrue(self::held($name));
        self::assertTrue($event->mutex->exists($event));
        self::assertFalse($event->mutex->create($event), 'an overlapping run is refused');

        // the scheduler forgets the mutex after the command ran, from a mutex of its own
        (new LockEventMutex(Container::getInstance()->make('cache')))->forget($event);
        self::assertFalse(self::held($name));
        self::assertTrue($event->mutex->create($event));
        $event->mutex->forget($event);
    }

    public function testOnOneServerRunsAnEventOncePerMinute(): void
    {
        // One Schedule per server: Laravel 10 remembers a Schedule's own answer per event.
        $command = 'true ' . uniqid('', true);
        $server = function () use ($command): array {
            $schedule = self::schedule();

            return [$schedule, $schedule->exec($command)->onOneServer()];
        };
        $now = new \DateTimeImmutable();
        [$first, $event] = $server();
        self::assertTrue($first->serverShouldRun($event, $now));
        [$second, $itsEvent] = $server();
        self::assertFalse($second->serverShouldRun($itsEvent, $now), 'a second server, same minute');
        [$third, $itsEvent] = $server();
        self::assertTrue($third->serverShouldRun($itsEvent, $now->modify('+1 minute')), 'the next minute');
        $cache = Container::getInstance()->make('cache')->store('redlock');
        $cache->lock($event->mutexName() . $now->format('Hi'))->forceRelease();
        $cache->lock($event->mutexName() . $now->modify('+1 minute')->format('Hi'))->forceRelease();
    }

    /**
     * Laravel's own CacheEventMutex on the redlock store as the default: Laravel 10+ takes a lock there
     * (the store is a lock provider), so withoutOverlapping() is a Redlock; Laravel 8 add()s a value,
     * which lands in the value store and still refuses an overlapping run.
     */
    public function testLaravelsOwnMutexWithTheRedlockStoreAsTheDefault(): void
    {
        $event = self::schedule(false)->exec('true ' . uniqid('', true))->withoutOverlapping(10);
        self::assertInstanceOf(\Illuminate\Console\Scheduling\CacheEventMutex::class, $event->mutex);
        self::assertTrue($event->mutex->create($event));
        self::assertTrue($event->mutex->exists($event));
        self::assertFalse($event->mutex->create($event), 'an overlapping run is refused');
        $takesLocks = method_exists($event->mutex, 'shouldUseLocks');
        self::assertSame($takesLocks, self::held($event->mutexName()), $takesLocks ? 'not a Redlock' : 'a Redlock on Laravel 8?');
        $event->mutex->forget($event);
        self::assertFalse($event->mutex->exists($event));
        self::assertTrue($event->mutex->create($event));
        $event->mutex->forget($event);
    }
}
