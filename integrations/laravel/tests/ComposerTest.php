<?php

declare(strict_types=1);

namespace RedLock\Laravel\Tests;

use PHPUnit\Framework\TestCase;

/** composer.json lets the package install on every Laravel major it is written for: 8.83 to 13. */
final class ComposerTest extends TestCase
{
    public function testEveryLaravelMajorFrom8To13IsAllowed(): void
    {
        $composer = json_decode((string) file_get_contents(__DIR__ . '/../composer.json'), true, 8, JSON_THROW_ON_ERROR);
        foreach (['illuminate/cache', 'illuminate/support'] as $package) {
            $majors = [];
            foreach (explode('|', $composer['require'][$package]) as $alternative) {
                self::assertMatchesRegularExpression('/^\^\d+\.\d+$/', $alternative, "$package: $alternative");
                $majors[] = (int) substr($alternative, 1);
            }
            self::assertSame(range(8, 13), $majors, $package);
        }
    }
}
