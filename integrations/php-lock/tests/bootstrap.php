<?php

declare(strict_types=1);

require_once '/usr/share/php/Malkusch/Lock/autoload.php';
require_once __DIR__ . '/../src/RedLockMutex.php';

if (!class_exists('RedLock')) {
    fwrite(STDERR, "the redlock extension is not loaded (run integrations/php-lock/run-tests.sh)\n");
    exit(1);
}
if ((string) getenv('REDLOCK_TEST_SERVERS') === '') {
    fwrite(STDERR, "REDLOCK_TEST_SERVERS is not set (run integrations/php-lock/run-tests.sh)\n");
    exit(1);
}
