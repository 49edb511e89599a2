<?php

declare(strict_types=1);

// PHP_LOCK_SRC: php-lock/lock 3.x's src/ (run-tests.sh unpacks 3.1.1 from the vendored tarball);
// otherwise Debian's php-malkusch-lock (2.x).
$src = (string) getenv('PHP_LOCK_SRC');
if ($src !== '') {
    require_once '/usr/share/php/Psr/Log/autoload.php'; // php-psr-log: 3.x's DistributedMutex logs through it
    spl_autoload_register(static function (string $class) use ($src): void {
        if (str_starts_with($class, 'Malkusch\\Lock\\')) {
            $file = $src . '/' . str_replace('\\', '/', substr($class, strlen('Malkusch\\Lock\\'))) . '.php';
            if (is_file($file)) {
                require $file;
            }
        }
    });
} else {
    require_once '/usr/share/php/Malkusch/Lock/autoload.php';
}
require_once __DIR__ . '/../src/LockMutexBase.php';
require_once __DIR__ . '/../src/RedLockMutex.php';

// The library's exceptions under one name for both majors (the tests catch these).
$library = \RedLock\PhpLock\RedLockMutex::LIBRARY_MAJOR === 3
    ? ['Timeout' => 'Malkusch\\Lock\\Exception\\LockAcquireTimeoutException', 'Acquire' => 'Malkusch\\Lock\\Exception\\LockAcquireException', 'Outside' => 'Malkusch\\Lock\\Exception\\ExecutionOutsideLockException']
    : ['Timeout' => 'malkusch\\lock\\exception\\TimeoutException', 'Acquire' => 'malkusch\\lock\\exception\\LockAcquireException', 'Outside' => 'malkusch\\lock\\exception\\ExecutionOutsideLockException'];
foreach ($library as $alias => $class) {
    class_alias($class, "RedLock\\PhpLock\\Tests\\Library\\{$alias}Exception");
}
fwrite(STDERR, sprintf("php-lock/lock %d.x (%s)\n", \RedLock\PhpLock\RedLockMutex::LIBRARY_MAJOR, $src !== '' ? $src : 'Debian\'s php-malkusch-lock'));

require_once __DIR__ . '/../../bootstrap.php';
\RedLock\Integrations\requireExtensionAndServers('php-lock');
