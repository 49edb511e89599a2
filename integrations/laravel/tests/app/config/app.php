<?php
return [
    'name' => 'redlock-test',
    'env' => 'testing',
    'debug' => true,
    'key' => 'base64:' . base64_encode(str_repeat('k', 32)),
    'cipher' => 'AES-256-CBC',
    'timezone' => 'UTC',
    'providers' => [
        Illuminate\Bus\BusServiceProvider::class,
        Illuminate\Cache\CacheServiceProvider::class,
        Illuminate\Foundation\Providers\ConsoleSupportServiceProvider::class,
        Illuminate\Database\DatabaseServiceProvider::class, // artisan's own commands need 'db'
        Illuminate\Filesystem\FilesystemServiceProvider::class,
        Illuminate\Queue\QueueServiceProvider::class,
        Illuminate\Redis\RedisServiceProvider::class,
        RedLock\Laravel\RedLockServiceProvider::class,
    ],
    'aliases' => [
        'Cache' => Illuminate\Support\Facades\Cache::class,
    ],
];
