<?php

declare(strict_types=1);

// What every integration's tests/bootstrap.php shares (integrations/phpunit.sh runs the suites; the tests'
// child processes load it too, without PHPUnit): the check that the suite runs where it can (the extension,
// the servers), the servers as RedLock takes them, and the race of forked processes on a counter file that each integration's lock serializes.

namespace RedLock\Integrations;

/** Exits, naming the runner, when the extension is not loaded or REDLOCK_TEST_SERVERS is not set. */
function requireExtensionAndServers(string $name): void
{
    $missing = !class_exists(\RedLock::class) ? 'the redlock extension is not loaded'
        : ((string) getenv('REDLOCK_TEST_SERVERS') === '' ? 'REDLOCK_TEST_SERVERS is not set' : null);
    if ($missing !== null) {
        fwrite(STDERR, "$missing (run integrations/$name/run-tests.sh)\n");
        exit(1);
    }
}

/** @return list<array{string, int, float}> the first $count of REDLOCK_TEST_SERVERS, as RedLock takes them (1 s timeout) */
function testServers(int $count): array
{
    $out = [];
    foreach (array_slice(explode(',', (string) getenv('REDLOCK_TEST_SERVERS')), 0, $count) as $hostPort) {
        [$host, $port] = explode(':', $hostPort);
        $out[] = [$host, (int) $port, 1.0];
    }
    return $out;
}

/**
 * Forks $processes children that each add 1 to a counter file $rounds times, read, wait 2 ms, write (updates
 * get lost without a lock), every time inside $underLock(callable $increment) (the child's own lock object:
 * $underLock runs in the child). Waits for them (60 s at most, then kills them and returns null); returns the
 * counter's final value, which the lock keeps at $processes * $rounds.
 */
function countInForkedProcesses(callable $underLock, int $processes = 4, int $rounds = 15): ?string
{
    $counter = (string) tempnam(sys_get_temp_dir(), 'redlock-counter');
    file_put_contents($counter, '0');
    $increment = static function () use ($counter): void {
        $value = (int) file_get_contents($counter);
        usleep(2000);
        file_put_contents($counter, (string) ($value + 1));
    };
    $children = [];
    for ($c = 0; $c < $processes; $c++) {
        $pid = pcntl_fork();
        if ($pid === 0) {
            for ($i = 0; $i < $rounds; $i++) {
                $underLock($increment);
            }
            posix_kill(getmypid(), SIGKILL);
        }
        $children[] = $pid;
    }
    $deadline = microtime(true) + 60;
    $finished = true;
    foreach ($children as $pid) {
        while (pcntl_waitpid($pid, $status, WNOHANG) === 0) {
            if (microtime(true) > $deadline) {
                posix_kill($pid, SIGKILL);
                $finished = false;
            }
            usleep(10000);
        }
    }
    $count = file_get_contents($counter);
    unlink($counter);

    return $finished ? $count : null;
}
