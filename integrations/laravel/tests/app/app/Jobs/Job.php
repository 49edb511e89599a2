<?php

namespace App\Jobs;

use Illuminate\Bus\Queueable;
use Illuminate\Contracts\Queue\ShouldQueue;
use Illuminate\Foundation\Bus\Dispatchable;
use Illuminate\Queue\InteractsWithQueue;

/** What every test job shares: it is queued, and it writes one line per event to the run's jobs.log. */
abstract class Job implements ShouldQueue
{
    use Dispatchable, InteractsWithQueue, Queueable;

    protected static function log(string $line): void
    {
        file_put_contents(getenv('APP_RUN_DIR') . '/jobs.log', sprintf("%.6f %d %s\n", microtime(true), getmypid(), $line), FILE_APPEND | LOCK_EX);
    }
}
