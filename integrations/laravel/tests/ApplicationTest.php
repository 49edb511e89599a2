<?php

declare(strict_types=1);

namespace RedLock\Laravel\Tests;

use App\Jobs\OverlappingJob;
use App\Jobs\ReleaseByOwner;
use App\Jobs\UniqueJob;
use Illuminate\Contracts\Cache\LockTimeoutException;
use Illuminate\Foundation\Application;
use Illuminate\Support\Facades\Facade;
use PHPUnit\Framework\TestCase;

/**
 * A Laravel application (tests/app: Laravel's Application, console kernel, providers, a redis
 * queue) whose default cache store is the redlock store with values in the 'redis' store, and
 * Laravel's own queue worker (`artisan queue:work`) in child processes: the locks Laravel takes
 * for itself (unique jobs, WithoutOverlapping) and owners passed between processes.
 *
 * @group application
 */
#[\PHPUnit\Framework\Attributes\Group('application')]
final class ApplicationTest extends TestCase
{
    private string $run;
    /** Applications booted by this test: each set an error and an exception handler (HandleExceptions). */
    private static int $booted = 0;
    /** @var list<resource> */
    private array $workers = [];

    protected function setUp(): void
    {
        $this->run = sys_get_temp_dir() . '/redlock-laravel-app-' . getmypid() . '-' . bin2hex(random_bytes(4));
        mkdir($this->run);
        foreach (['APP_RUN_DIR' => $this->run, 'APP_QUEUE' => 'q' . bin2hex(random_bytes(6)), 'APP_CACHE_PREFIX' => false,
            'REDLOCK_WAIT_MS' => false, 'REDLOCK_FOREVER' => false] as $name => $value) {
            putenv($value === false ? $name : "$name=$value");
        }
    }

    protected function tearDown(): void
    {
        foreach ($this->workers as $worker) {
            proc_terminate($worker, SIGKILL);
            proc_close($worker);
        }
        for (; self::$booted > 0; self::$booted--) { // PHPUnit 10+ calls a test that leaves them risky
            restore_error_handler();
            restore_exception_handler();
        }
        array_map('unlink', glob($this->run . '/*') ?: []);
        rmdir($this->run);
    }

    /** The application booted as artisan boots it, with $env set first. */
    private static function app(array $env = []): Application
    {
        foreach ($env as $name => $value) {
            putenv("$name=$value");
        }
        Facade::clearResolvedInstances();
        $app = require __DIR__ . '/app/bootstrap/app.php';
        $app->make(\Illuminate\Contracts\Console\Kernel::class)->bootstrap();
        self::$booted++;

        return $app;
    }

    /** `php artisan queue:work` in a child process, as a deployment runs it. */
    private function startWorker(): void
    {
        $command = [PHP_BINARY, '-d', 'extension=' . getenv('REDLOCK_SO'), __DIR__ . '/app/artisan', 'queue:work', '--sleep=1', '--max-time=20'];
        $worker = proc_open($command, [0 => ['file', '/dev/null', 'r'], 1 => ['file', $this->run . '/worker.out', 'a'], 2 => ['file', $this->run . '/worker.out', 'a']], $pipes);
        self::assertIsResource($worker);
        $this->workers[] = $worker;
    }

    /** Waits (at most $seconds) until jobs.log has $count lines matching $pattern; returns the log's lines. */
    private function awaitLog(string $pattern, int $count, float $seconds = 15.0): array
    {
        $deadline = microtime(true) + $seconds;
        do {
            $lines = is_file($this->run . '/jobs.log') ? file($this->run . '/jobs.log', FILE_IGNORE_NEW_LINES) : [];
            if (count(preg_grep($pattern, $lines)) >= $count) {
                return $lines;
            }
            usleep(50000);
        } while (microtime(true) < $deadline);
        self::fail(sprintf("%d lines matching %s not logged in %.0f s; log:\n%s\nworker:\n%s", $count, $pattern, $seconds,
            implode("\n", $lines), @file_get_contents($this->run . '/worker.out')));
    }

    /** How many of the 3 Redlock servers hold $key (database 0), and the largest PTTL among them. */
    private static function onServers(string $key): array
    {
        $held = 0;
        $pttl = -2;
        foreach (array_slice(explode(',', (string) getenv('REDLOCK_TEST_SERVERS')), 0, 3) as $hostPort) {
            [$host, $port] = explode(':', $hostPort);
            $redis = new \Redis();
            $redis->connect($host, (int) $port, 1.0);
            $ms = $redis->pttl($key);
            $held += $ms > 0 || $ms === -1 ? 1 : 0;
            $pttl = max($pttl, $ms);
        }

        return [$held, $pttl];
    }

    public function testAnOwnerGivenToLockIsReleasedByAQueuedJobThroughRestoreLock(): void
    {
        $app = self::app();
        $name = uniqid('report-', true);
        $jobId = 'job-' . bin2hex(random_bytes(4));
        $lock = $app['cache']->lock($name, 30, $jobId);
        self::assertTrue($lock->get());
        ReleaseByOwner::dispatch($name, $jobId);
        $this->startWorker();
        $this->awaitLog('/ release /', 1);
        self::assertMatchesRegularExpression('/ release \S+ released$/', file_get_contents($this->run . '/jobs.log'));
        self::assertSame($jobId, $lock->owner(), 'the owner is the caller\'s, as in every Laravel store');
        self::assertFalse($lock->isOwnedByCurrentProcess());
        self::assertTrue($app['cache']->lock($name, 10)->get(), 'still held after the job released it');
    }

    public function testUniqueJobsAndWithoutOverlappingLockThroughRedlockWhileValuesStayInTheValueStore(): void
    {
        $app = self::app();
        // the default store answers value calls from the 'redis' store
        $answer = uniqid('answer-', true);
        self::assertSame(42, $app['cache']->remember($answer, 60, fn () => 42));
        self::assertEquals(42, $app['cache']->remember($answer, 60, fn () => 43)); // Redis gives numbers back as strings
        self::assertEquals(42, $app['cache']->store('redis')->get($answer));
        $limiter = $app->make(\Illuminate\Cache\RateLimiter::class);
        $login = uniqid('login-', true);
        $limiter->hit($login, 60);
        self::assertEquals(1, $limiter->attempts($login));

        $id = bin2hex(random_bytes(4));
        UniqueJob::dispatch($id);
        UniqueJob::dispatch($id); // refused while the first is queued
        $key = 'redlock_test_cache:laravel_unique_job:' . UniqueJob::class . $id;
        self::assertSame(3, self::onServers($key)[0], 'the unique lock is a Redlock on every server');
        self::assertNull($app['cache']->store('redis')->get('laravel_unique_job:' . UniqueJob::class . $id));

        $key = 'k' . bin2hex(random_bytes(4));
        for ($n = 1; $n <= 3; $n++) {
            OverlappingJob::dispatch($key, $n);
        }
        $this->startWorker();
        $this->startWorker();
        $lines = $this->awaitLog('/ end /', 3, 20.0);
        self::assertCount(1, preg_grep('/ unique /', $lines), 'the second dispatch was not refused');
        $running = 0;
        $released = 0;
        foreach ($lines as $line) {
            $running += str_contains($line, ' start ') ? 1 : (str_contains($line, ' end ') ? -1 : 0);
            self::assertLessThanOrEqual(1, $running, "two jobs of one key ran at once:\n" . implode("\n", $lines));
        }
        self::assertSame(0, self::onServers($key)[0]);
        self::assertSame(0, self::onServers('redlock_test_cache:laravel_unique_job:' . UniqueJob::class . $id)[0], 'released after the job');
        UniqueJob::dispatch($id);
        $this->awaitLog('/ unique /', 2);
    }

    public function testGetTriesOnceAndBlockWaitsAtMostItsSecondsWhateverWaitTimeout(): void
    {
        $app = self::app(['REDLOCK_WAIT_MS' => '5000']); // the guide's example of waitTimeout before
        $name = uniqid('busy-', true);
        self::assertTrue($app['cache']->lock($name, 30)->get());
        $start = microtime(true);
        self::assertFalse($app['cache']->lock($name, 10)->get());
        self::assertLessThan(0.5, microtime(true) - $start, 'get() waited: it must try once');
        $start = microtime(true);
        try {
            $app['cache']->lock($name, 10)->block(1);
            self::fail('no LockTimeoutException');
        } catch (LockTimeoutException $e) {
            $waited = microtime(true) - $start;
            self::assertGreaterThan(0.9, $waited);
            self::assertLessThan(1.5, $waited, 'block(1) waited longer than its second');
        }
    }

    public function testTheCachePrefixSeparatesTwoApplicationsOnTheSameServers(): void
    {
        $name = uniqid('shared-', true);
        $first = self::app(['APP_CACHE_PREFIX' => 'first']);
        self::assertTrue($first['cache']->lock($name, 30)->get());
        self::assertSame(3, self::onServers("first:$name")[0]);
        self::assertFalse($first['cache']->lock($name, 30)->get(), 'one application still conflicts with itself');
        $second = self::app(['APP_CACHE_PREFIX' => 'second']);
        self::assertTrue($second['cache']->lock($name, 30)->get(), 'another application shares the lock');
        self::assertSame(3, self::onServers("second:$name")[0]);
    }

    public function testNoExpiryIsTheForeverTtlAndARestoredLockRefreshesToItsOwnSeconds(): void
    {
        $app = self::app(['REDLOCK_FOREVER' => '120']);
        $name = uniqid('forever-', true);
        self::assertTrue($app['cache']->lock($name, 0)->get());
        [$held, $pttl] = max(self::onServers("redlock_test_cache:$name"), self::onServers($name)); // with or without the prefix
        self::assertSame(3, $held);
        self::assertGreaterThan(110000, $pttl);
        self::assertLessThanOrEqual(120000, $pttl, "\$seconds = 0 is the store's 'forever' seconds");

        $name = uniqid('owned-', true);
        self::assertTrue($app['cache']->lock($name, 30, 'job-7')->get());
        $restored = $app['cache']->restoreLock($name, 'job-7');
        self::assertTrue($restored->refresh());
        [, $pttl] = self::onServers("redlock_test_cache:$name");
        self::assertGreaterThan(25000, $pttl);
        self::assertLessThanOrEqual(30000, $pttl, 'refresh() of a restored lock gives it its own 30 s, not a day');
        self::assertTrue($app['cache']->lock($name)->isOwnedBy('job-7'), 'any Lock object sees who owns it');
        self::assertFalse($app['cache']->lock($name)->isOwnedBy('job-8'));
        self::assertTrue($app['cache']->lock($name)->isLocked());
        self::assertTrue($restored->release());
        self::assertFalse($app['cache']->lock($name)->isLocked());
        self::assertFalse($app['cache']->lock($name)->isOwnedBy('job-7'));
    }
}
