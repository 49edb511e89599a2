<?php

declare(strict_types=1);

foreach (['Support', 'Container', 'Config', 'Cache', 'Queue', 'Bus', 'Pipeline', 'Console'] as $component) {
    require_once "/usr/share/php/Illuminate/$component/autoload.php";
}
foreach (['RedLocks', 'RedLockLock', 'RedLockStore', 'RedLockServiceProvider', 'Scheduling/LockEventMutex', 'Scheduling/LockSchedulingMutex'] as $class) {
    require_once __DIR__ . "/../src/$class.php";
}
if (!class_exists('RedLock')) {
    fwrite(STDERR, "the redlock extension is not loaded (run integrations/laravel/run-tests.sh)\n");
    exit(1);
}
if ((string) getenv('REDLOCK_TEST_SERVERS') === '') {
    fwrite(STDERR, "REDLOCK_TEST_SERVERS is not set (run integrations/laravel/run-tests.sh)\n");
    exit(1);
}
