<?php
/* The code under test: an ordinary class that takes the lock servers from its configuration and
 * knows nothing of tests. */
final class ReportJob
{
    private RedLock $redlock;

    public function __construct(array $lockServers)
    {
        $this->redlock = new RedLock($lockServers, 50, 3);
    }

    /** Builds the report unless another worker holds it: 'built', 'busy', or 'lost' (the lease ran out mid-way). */
    public function run(string $day, callable $build): string
    {
        $lock = $this->redlock->lock("report:$day", 30000);
        if ($lock === false) {
            return 'busy';
        }
        $build();
        if ($this->redlock->validity($lock) === false) {
            return 'lost'; // too slow: someone else may have started meanwhile
        }
        $this->redlock->unlock($lock);
        return 'built';
    }
}
