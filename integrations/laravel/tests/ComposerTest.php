<?php

declare(strict_types=1);

namespace RedLock\Laravel\Tests;

require_once __DIR__ . '/../../ComposerTestCase.php';

/** composer.json lets the package install on every Laravel major it is written for: 8.83 to 13. */
final class ComposerTest extends \RedLock\Integrations\ComposerTestCase
{
    private const MAJORS = ['^8.83', '^9.0', '^10.0', '^11.0', '^12.0', '^13.0'];
    protected const ALLOWED = ['illuminate/cache' => self::MAJORS, 'illuminate/support' => self::MAJORS];
}
