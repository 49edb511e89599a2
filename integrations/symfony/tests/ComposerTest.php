<?php

declare(strict_types=1);

namespace RedLock\Symfony\Tests;

use PHPUnit\Framework\TestCase;

/** composer.json lets the store install on every symfony/lock major it is written for: 5.4 to 8 (8: read, not run). */
final class ComposerTest extends TestCase
{
    public function testEverySymfonyLockMajorFrom5To8IsAllowed(): void
    {
        $composer = json_decode((string) file_get_contents(__DIR__ . '/../composer.json'), true, 8, JSON_THROW_ON_ERROR);
        $majors = [];
        foreach (explode('|', $composer['require']['symfony/lock']) as $alternative) {
            self::assertMatchesRegularExpression('/^\^\d+\.\d+$/', $alternative, $alternative);
            $majors[] = (int) substr($alternative, 1);
        }
        self::assertSame([5, 6, 7, 8], $majors);
    }
}
