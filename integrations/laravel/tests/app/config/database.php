<?php
[$host, $port] = explode(':', explode(',', (string) getenv('REDLOCK_TEST_SERVERS'))[0]);

return [
    'default' => 'sqlite', // never connected: artisan's commands ask for the manager
    'connections' => ['sqlite' => ['driver' => 'sqlite', 'database' => ':memory:']],
    'redis' => [ // one server of the first: values and the queue (a plain Redis, not a Redlock)
        'client' => 'phpredis',
        'options' => ['prefix' => ''],
        'default' => ['host' => $host, 'port' => (int) $port, 'database' => 1],
        'cache' => ['host' => $host, 'port' => (int) $port, 'database' => 2],
    ],
];
