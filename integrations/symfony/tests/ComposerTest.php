<?php

declare(strict_types=1);

namespace RedLock\Symfony\Tests;

require_once __DIR__ . '/../../ComposerTestCase.php';

/** composer.json lets the store install on every symfony/lock major it is written for: 5.4 to 8 (8: read, not run). */
final class ComposerTest extends \RedLock\Integrations\ComposerTestCase
{
    protected const ALLOWED = ['symfony/lock' => ['^5.4', '^6.0', '^7.0', '^8.0']];
}
