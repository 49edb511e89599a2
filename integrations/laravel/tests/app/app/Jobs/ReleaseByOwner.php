<?php

namespace App\Jobs;

/** The documented pattern: a lock taken with an owner in one process, released by a job with it. */
class ReleaseByOwner extends Job
{
    public function __construct(public string $name, public string $owner)
    {
    }

    public function handle(): void
    {
        $released = app('cache')->restoreLock($this->name, $this->owner)->release();
        self::log("release {$this->name} " . ($released ? 'released' : 'not-released'));
    }
}
