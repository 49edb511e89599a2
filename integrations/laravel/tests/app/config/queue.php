<?php
return [
    'default' => 'redis',
    'connections' => [
        'redis' => ['driver' => 'redis', 'connection' => 'default', 'queue' => getenv('APP_QUEUE') ?: 'default', 'retry_after' => 90, 'block_for' => null],
    ],
    'failed' => ['driver' => 'null'],
];
