<?php

declare(strict_types=1);

namespace RedLock\Laravel;

use Illuminate\Support\ServiceProvider;

/**
 * Registers the 'redlock' cache driver. In config/cache.php:
 *
 *     'redlock' => [
 *         'driver' => 'redlock',
 *         'servers' => [['10.0.0.1', 6379, 0.05], ['10.0.0.2', 6379, 0.05], ['10.0.0.3', 6379, 0.05]],
 *         'retry_delay' => 200, 'retry_count' => 3,            // optional, the RedLock defaults
 *         'options' => ['prefix' => 'myapp:', 'waitTimeout' => 5000],  // optional: RedLock's options
 *     ],
 *
 * The servers take every form RedLock does (lists, URIs, keyed arrays). Bad settings surface as
 * the extension's ValueError or TypeError, naming the argument, when the store is first used.
 */
class RedLockServiceProvider extends ServiceProvider
{
    public function boot()
    {
        $this->app['cache']->extend('redlock', function ($app, array $config) {
            $redlock = new \RedLock(
                $config['servers'] ?? [],
                (int) ($config['retry_delay'] ?? 200),
                (int) ($config['retry_count'] ?? 3),
                $config['options'] ?? []
            );

            return $this->repository(new RedLockStore($redlock));
        });
    }
}
