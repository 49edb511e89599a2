<?php

declare(strict_types=1);

namespace RedLock\Laravel;

use Illuminate\Support\ServiceProvider;

/**
 * Registers the 'redlock' cache driver. In config/cache.php:
 *
 *     'default' => 'redlock',   // optional: every lock Laravel takes through Redlock, values in 'values'
 *     'stores' => [
 *         'redlock' => [
 *             'driver' => 'redlock',
 *             'servers' => [['10.0.0.1', 6379, 0.05], ['10.0.0.2', 6379, 0.05], ['10.0.0.3', 6379, 0.05]],
 *             'values' => 'redis',                 // optional: the store that holds values (and owners)
 *             'options' => ['waitTimeout' => 1000],  // optional: RedLock's options
 *             'forever' => 86400,                  // optional: seconds a lock of $seconds = 0 lives
 *             'retry_delay' => 200,                // optional: ms between the attempts of a waiting block()
 *         ],
 *         ...
 *
 * The lock keys carry the cache prefix ('prefix' of the store, else cache.prefix) as Laravel's Redis
 * locks do (followed by ':' on Laravel 8-10, not on 11 and later: lockPrefix()), unless 'options'
 * has a 'prefix' of its own. The servers take every
 * form RedLock does (lists, URIs, keyed arrays). Bad settings surface as the extension's ValueError
 * or TypeError, naming the argument, when the store is first used.
 */
class RedLockServiceProvider extends ServiceProvider
{
    public function boot()
    {
        $this->app['cache']->extend('redlock', function ($app, array $config) {
            $options = $config['options'] ?? [];
            if (!array_key_exists('prefix', $options)) {
                $options['prefix'] = RedLockServiceProvider::lockPrefix((string) ($config['prefix'] ?? $app['config']['cache.prefix'] ?? ''));
            }
            $values = null;
            if (isset($config['values'])) {
                if (($app['config']["cache.stores.{$config['values']}.driver"] ?? null) === 'redlock') {
                    throw new \ValueError(sprintf("The redlock cache store's 'values' must name a store of another driver, '%s' is a redlock store", $config['values']));
                }
                $values = $app['cache']->store($config['values'])->getStore();
            }
            $store = new RedLockStore(
                new RedLocks($config['servers'] ?? [], (int) ($config['retry_delay'] ?? 200), $options),
                $values,
                (int) ($config['forever'] ?? RedLockStore::FOREVER_SECONDS)
            );

            return $this->repository($store, $config);
        });
    }

    /**
     * What Laravel's own RedisStore puts before a lock's name for the cache prefix $prefix, asked of
     * the RedisStore of the Laravel that runs (no connection is made): "$prefix:" on 8-10, $prefix
     * on 11 and later (its setPrefix() dropped the ':'), '' for ''.
     */
    public static function lockPrefix(string $prefix): string
    {
        $redis = new class () implements \Illuminate\Contracts\Redis\Factory {
            public function connection($name = null)
            {
                throw new \LogicException('only the prefix is asked of this RedisStore');
            }
        };

        return (string) (new \Illuminate\Cache\RedisStore($redis, $prefix))->getPrefix();
    }
}
