<?php

namespace App\Jobs;

use Illuminate\Contracts\Queue\ShouldBeUnique;

/** One queued at a time per id: Laravel's UniqueLock on the default cache store. */
class UniqueJob extends Job implements ShouldBeUnique
{
    public function __construct(public string $id)
    {
    }

    public function uniqueId()
    {
        return $this->id;
    }

    public function handle(): void
    {
        self::log("unique {$this->id}");
    }
}
