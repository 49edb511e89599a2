<?php

declare(strict_types=1);

namespace RedLock\Symfony\Tests;

use PHPUnit\Framework\TestCase;

/**
 * examples/console.php, a Symfony Console command guarded by LockFactory over RedLockStore, run as
 * separate processes: while one holds the lock, a second says it is already running; afterwards
 * the command runs again.
 */
final class ConsoleCommandTest extends TestCase
{
    /** @return array{0: resource, 1: array} */
    private static function start(float $hold): array
    {
        $servers = implode(',', array_map(fn ($s) => "$s[0]:$s[1]", Servers::list()));
        // the extension as this PHPUnit run loaded it (integrations/phpunit.sh passes its path)
        $so = (string) getenv('REDLOCK_SO');
        $command = array_merge([\PHP_BINARY], '' !== $so ? ['-d', "extension=$so"] : [],
            [__DIR__.'/../examples/console.php', 'report', "--hold=$hold"]);
        $process = proc_open($command, [1 => ['pipe', 'w'], 2 => ['pipe', 'w']], $pipes, null,
            ['REDLOCK_SERVERS' => $servers] + getenv());
        self::assertIsResource($process);

        return [$process, $pipes];
    }

    private static function finish(array $started): string
    {
        [$process, $pipes] = $started;
        $out = stream_get_contents($pipes[1]).stream_get_contents($pipes[2]);
        proc_close($process);

        return trim($out);
    }

    public function testASecondRunWhileTheFirstHoldsTheLockStepsAside(): void
    {
        $first = self::start(1.5);
        usleep(700000);
        $second = self::finish(self::start(0));
        $this->assertSame("running\ndone", self::finish($first));
        $this->assertSame('The command is already running in another process.', $second);
        $this->assertSame("running\ndone", self::finish(self::start(0)));
    }
}
