<?php

declare(strict_types=1);

namespace RedLock\Integrations;

use PHPUnit\Framework\TestCase;

/**
 * Every integration's composer.json test: the package installs on each major of the library it adapts that
 * it is written for, and only those. A suite's tests/ComposerTest.php names them in ALLOWED.
 */
abstract class ComposerTestCase extends TestCase
{
    /** @var array<string, list<string>> a required package => its alternatives in order, one ^major.minor each */
    protected const ALLOWED = [];

    public function testTheMajorsWrittenForAreAllowed(): void
    {
        $composer = json_decode((string) file_get_contents(dirname((string) (new \ReflectionClass(static::class))->getFileName(), 2) . '/composer.json'), true, 8, JSON_THROW_ON_ERROR);
        self::assertNotEmpty(static::ALLOWED);
        foreach (static::ALLOWED as $package => $alternatives) {
            self::assertSame(implode('|', $alternatives), $composer['require'][$package] ?? null, $package);
        }
    }
}
