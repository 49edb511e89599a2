<?php

namespace App\Jobs;

use Illuminate\Queue\Middleware\WithoutOverlapping;

/** Jobs of one key never run at once: WithoutOverlapping on the default cache store. */
class OverlappingJob extends Job
{
    public $tries = 20;

    public function __construct(public string $key, public int $n)
    {
    }

    public function middleware()
    {
        return [new WithoutOverlapping($this->key, 1, 30)];
    }

    public function handle(): void
    {
        self::log("start {$this->key} {$this->n}");
        usleep(400000);
        self::log("end {$this->key} {$this->n}");
    }
}
