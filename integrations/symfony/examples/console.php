<?php

declare(strict_types=1);

/*
 * A Symfony Console command that runs on one machine at a time across a fleet: RedLockFactory over
 * RedLockStore, as LockableTrait does over a local store (LockableTrait itself builds its own
 * local store in Symfony 5.4, so the command takes the factory instead).
 *   php -d extension=redlock.so examples/console.php report [--hold=SECONDS]
 * Servers: REDLOCK_SERVERS=host:port,host:port,... (default 127.0.0.1:6379).
 */

require_once is_file(__DIR__.'/../vendor/autoload.php') ? __DIR__.'/../vendor/autoload.php'
    : '/usr/share/php/Symfony/Component/Console/autoload.php';
require_once '/usr/share/php/Symfony/Component/Lock/autoload.php';
require_once __DIR__.'/../src/RedLockStore.php';
require_once __DIR__.'/../src/RedLockFactory.php';

use RedLock\Symfony\RedLockFactory;
use RedLock\Symfony\RedLockStore;
use Symfony\Component\Console\Application;
use Symfony\Component\Console\Command\Command;
use Symfony\Component\Console\Input\InputInterface;
use Symfony\Component\Console\Input\InputOption;
use Symfony\Component\Console\Output\OutputInterface;
use Symfony\Component\Lock\LockFactory;

final class ReportCommand extends Command
{
    protected static $defaultName = 'report';
    private LockFactory $locks;

    public function __construct(LockFactory $locks)
    {
        $this->locks = $locks;
        parent::__construct();
    }

    protected function configure(): void
    {
        $this->addOption('hold', null, InputOption::VALUE_REQUIRED, 'seconds of work', '0');
    }

    protected function execute(InputInterface $input, OutputInterface $output): int
    {
        $lock = $this->locks->createLock($this->getName(), 30);
        if (!$lock->acquire()) {
            $output->writeln('The command is already running in another process.');

            return Command::SUCCESS;
        }
        try {
            $output->writeln('running');
            usleep((int) (1e6 * (float) $input->getOption('hold')));
            $output->writeln('done');
        } finally {
            $lock->release();
        }

        return Command::SUCCESS;
    }
}

$servers = [];
foreach (explode(',', getenv('REDLOCK_SERVERS') ?: '127.0.0.1:6379') as $hostPort) {
    [$host, $port] = explode(':', $hostPort);
    $servers[] = [$host, (int) $port, 0.5];
}
$factory = new RedLockFactory(new RedLockStore(new RedLock($servers, 0, 1))); // a crashed run's lock ends after its 30 s
$application = new Application('redlock example');
$application->add(new ReportCommand($factory));
$application->run();
