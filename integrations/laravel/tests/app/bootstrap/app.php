<?php
/* A Laravel application as `laravel new` lays it out, cut to what the tests need: Debian's
 * php-laravel-framework (or the framework named by LARAVEL_AUTOLOAD), this package, the redlock
 * store as the default cache store with values in the 'redis' store, and a redis queue. Its
 * settings come from the environment (REDLOCK_TEST_SERVERS, APP_CACHE_PREFIX, REDLOCK_WAIT_MS,
 * APP_RUN_DIR for its caches and the jobs' logs): see tests/ApplicationTest.php. */
require_once getenv('LARAVEL_AUTOLOAD') ?: '/usr/share/php/Illuminate/autoload.php';
foreach (['LockServersUnavailableException', 'RedLocks', 'RedLockLock', 'RedLockStore', 'RedLockServiceProvider'] as $class) {
    require_once __DIR__ . "/../../../src/$class.php";
}
defined('REDLOCK_TEST_APP') || spl_autoload_register(function (string $class): void {
    if (str_starts_with($class, 'App\\')) {
        require __DIR__ . '/../app/' . str_replace('\\', '/', substr($class, 4)) . '.php';
    }
});
defined('REDLOCK_TEST_APP') || define('REDLOCK_TEST_APP', true);
foreach (['APP_PACKAGES_CACHE' => 'packages.php', 'APP_SERVICES_CACHE' => 'services.php', 'APP_CONFIG_CACHE' => 'config.php'] as $name => $file) {
    putenv("$name=" . getenv('APP_RUN_DIR') . "/$file"); // never inside the source tree
}

$app = new Illuminate\Foundation\Application(dirname(__DIR__));
$app->useStoragePath(getenv('APP_RUN_DIR'));
$app->singleton(Illuminate\Contracts\Console\Kernel::class, Illuminate\Foundation\Console\Kernel::class);
$app->singleton(Illuminate\Contracts\Debug\ExceptionHandler::class, Illuminate\Foundation\Exceptions\Handler::class);
if (interface_exists(Illuminate\Contracts\Foundation\MaintenanceMode::class)) { // Laravel 9+: queue:work asks whether the app is down
    $app->singleton(Illuminate\Contracts\Foundation\MaintenanceMode::class, Illuminate\Foundation\FileBasedMaintenanceMode::class);
}

return $app;
