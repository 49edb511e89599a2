<?php
$servers = [];
foreach (array_slice(explode(',', (string) getenv('REDLOCK_TEST_SERVERS')), 0, 3) as $hostPort) {
    [$host, $port] = explode(':', $hostPort);
    $servers[] = [$host, (int) $port, 1.0];
}
$wait = getenv('REDLOCK_WAIT_MS');

return [
    'default' => 'redlock', // every lock Laravel takes goes through Redlock
    'stores' => [
        'redlock' => [
            'driver' => 'redlock',
            'servers' => $servers,
            'values' => 'redis', // Cache::remember(), the rate limiter, ... stay in the value store
            'options' => $wait === false ? [] : ['waitTimeout' => (int) $wait],
            'forever' => (int) (getenv('REDLOCK_FOREVER') ?: 86400),
        ],
        'redis' => ['driver' => 'redis', 'connection' => 'cache'],
    ],
    'prefix' => getenv('APP_CACHE_PREFIX') ?: 'redlock_test_cache',
];
