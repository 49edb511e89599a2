<?php

declare(strict_types=1);

namespace RedLock\PhpLock\Tests;

require_once __DIR__ . '/../../ComposerTestCase.php';

/** composer.json lets the mutex install on both php-lock/lock majors it runs on: 2.2+ and 3. */
final class ComposerTest extends \RedLock\Integrations\ComposerTestCase
{
    protected const ALLOWED = ['malkusch/lock' => ['^2.2', '^3.0']];
}
