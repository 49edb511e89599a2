<?php
/* Histories (issue 33): every operation a chaos worker makes, one JSON object per line, for
 * verify/chaos/checker.php. Times are hrtime(true) nanoseconds: CLOCK_MONOTONIC, one clock for every
 * process of the machine, so lines of different workers compare. A record:
 *   {"w": worker, "op": lock|extend|validity|unlock|renewals|loss|write|fault|run,
 *    "res": resource, "t0": invoke ns, "t1": completion ns (null: never completed),
 *    "out": ok|fail|info (info: indeterminate: exception, timeout, crash), "token", "fence",
 *    "validity": ms the call promised (lock, extend, validity), "accepted": a write's fate, "seq": its
 *    place in the fenced resource's own order, ...}
 * Lines are buffered and flushed every 64 records and at exit; a worker SIGKILLed loses its last
 * records: a lost lock hides a violation (the checker sees fewer holders), a lost unlock could make one
 * (its keys released, its promise seeming to run on), so the workers that are SIGKILLed (fair ones, with
 * --kill-workers) flush after each call and write an unlock's invoke first ("unlock-begin"). */

final class History
{
    private $fh = null;
    private string $buf = '';
    private int $n = 0;

    public function __construct(?string $path, private string $worker)
    {
        if ($path !== null) {
            $this->fh = fopen($path, 'a');
        }
    }

    public function on(): bool
    {
        return $this->fh !== null;
    }

    public function add(array $rec): void
    {
        if ($this->fh === null) {
            return;
        }
        $this->buf .= json_encode(['w' => $this->worker] + $rec, JSON_UNESCAPED_SLASHES) . "\n";
        if (++$this->n % 64 === 0) {
            $this->flush();
        }
    }

    public function flush(): void
    {
        if ($this->fh !== null && $this->buf !== '') {
            fwrite($this->fh, $this->buf);
            fflush($this->fh);
            $this->buf = '';
        }
    }
}
