<?php
use PHPUnit\Framework\TestCase;

require_once __DIR__ . '/ReportJob.php';

final class ReportJobTest extends TestCase
{
    private const SERVERS = ['memory://a', 'memory://b', 'memory://c'];

    protected function tearDown(): void
    {
        RedLockMemory::reset(); // empty stores, every server up, the real clock
    }

    public function testBuildsWhenFree(): void
    {
        $this->assertSame('built', (new ReportJob(self::SERVERS))->run('2026-11-24', fn () => null));
    }

    public function testASecondWorkerIsTurnedAway(): void
    {
        $first = new ReportJob(self::SERVERS);
        $second = new ReportJob(self::SERVERS);
        $outcome = $first->run('2026-11-24', fn () => $this->assertSame('busy', $second->run('2026-11-24', fn () => null)));
        $this->assertSame('built', $outcome);
    }

    public function testASlowBuildNoticesItsLeaseRanOut(): void
    {
        $job = new ReportJob(self::SERVERS);
        $this->assertSame('lost', $job->run('2026-11-24', fn () => RedLockMemory::advance(31000)));
    }

    public function testOneServerDownIsTolerated(): void
    {
        RedLockMemory::fail('memory://b');
        $this->assertSame('built', (new ReportJob(self::SERVERS))->run('2026-11-24', fn () => null));
    }

    public function testTwoServersDownMeansNoLock(): void
    {
        RedLockMemory::fail('memory://b');
        RedLockMemory::fail('memory://c', 'error');
        $this->assertSame('busy', (new ReportJob(self::SERVERS))->run('2026-11-24', fn () => null));
    }
}
