<?php

declare(strict_types=1);

// LARAVEL_AUTOLOAD: another Laravel's autoloader (a vendor/autoload.php); by default Debian's packages.
if (getenv('LARAVEL_AUTOLOAD')) {
    require_once getenv('LARAVEL_AUTOLOAD');
} else {
    foreach (['Support', 'Container', 'Config', 'Cache', 'Queue', 'Bus', 'Pipeline', 'Console', 'Redis'] as $component) {
        require_once "/usr/share/php/Illuminate/$component/autoload.php";
    }
}
foreach (['LockServersUnavailableException', 'RedLocks', 'RedLockLock', 'RedLockStore', 'RedLockServiceProvider', 'Scheduling/LocksOnAStore', 'Scheduling/LockEventMutex', 'Scheduling/LockSchedulingMutex'] as $class) {
    require_once __DIR__ . "/../src/$class.php";
}
require_once __DIR__ . '/../../bootstrap.php';
\RedLock\Integrations\requireExtensionAndServers('laravel');
