<?php

declare(strict_types=1);

namespace RedLock\PhpLock\Tests;

use PHPUnit\Framework\TestCase;

/** composer.json lets the mutex install on both php-lock/lock majors it runs on: 2.2+ and 3. */
final class ComposerTest extends TestCase
{
    public function testPhpLock2And3AreAllowed(): void
    {
        $composer = json_decode((string) file_get_contents(__DIR__ . '/../composer.json'), true, 8, JSON_THROW_ON_ERROR);
        self::assertSame('^2.2|^3.0', $composer['require']['malkusch/lock']);
    }
}
