--TEST--
The extension is named redlock, declares class RedLock and PHP_REDLOCK_VERSION = phpversion('redlock')
--EXTENSIONS--
redlock
--FILE--
<?php
$ext = new ReflectionExtension('redlock');
var_dump($ext->getName(), $ext->getClassNames());
var_dump(PHP_REDLOCK_VERSION === phpversion('redlock'), PHP_REDLOCK_VERSION === $ext->getVersion());
var_dump((bool) preg_match('/^\d+\.\d+\.\d+/', PHP_REDLOCK_VERSION));
var_dump(array_keys($ext->getConstants()));

$class = new ReflectionClass(RedLock::class);
var_dump($class->isFinal(), $class->getExtensionName());
foreach ($class->getMethods() as $method) {
    echo $method->getName(), '(', implode(', ', array_map(fn ($p) => $p->getType() . ' $' . $p->getName()
        . ($p->isDefaultValueAvailable() ? ' = ' . var_export($p->getDefaultValue(), true) : ''), $method->getParameters())),
        ')', $method->hasReturnType() ? ': ' . $method->getReturnType() : '', "\n";
}

// The same through `php --re redlock`, the way a user would look.
$cmd = PHP_BINARY . ' ' . (getenv('TEST_PHP_EXTRA_ARGS') ?: '') . ' --re redlock';
$out = shell_exec($cmd);
var_dump((bool) preg_match('/^Extension \[ <persistent> extension #\d+ redlock version ' . preg_quote(PHP_REDLOCK_VERSION) . ' \]/', $out));
var_dump((bool) preg_match('/Class \[ <internal:redlock> class RedLock/', $out));
?>
--EXPECT--
string(7) "redlock"
array(3) {
  [0]=>
  string(7) "RedLock"
  [1]=>
  string(16) "RedLockException"
  [2]=>
  string(13) "RedLockMemory"
}
bool(true)
bool(true)
bool(true)
array(1) {
  [0]=>
  string(19) "PHP_REDLOCK_VERSION"
}
bool(false)
string(7) "redlock"
__construct(array $servers, int $retryDelay = 200, int $retryCount = 3, array $options = array (
))
fromCluster(array|string $seeds, int $retryDelay = 200, int $retryCount = 3, array $options = array (
)): RedLock
lock(array|string $resource, int $ttl): array|false
lockSemaphore(string $resource, int $limit, int $ttl): array|false
lockShared(string $resource, int $ttl): array|false
promote(array $lock, int $ttl): array|false
demote(array $lock, int $ttl): array|false
unlock(array $lock): bool
forceUnlock(array|string $resource): bool
extend(array $lock, int $ttl): array|false
validity(array $lock): float|false
inspect(array|string $resource, int $limit = 0): ?array
isLocked(array|string $resource): ?bool
run(array|string $resource, int $ttl, callable $fn): mixed
setObserver(?callable $observer): void
metrics(): array
getLastErrors(): array
getServerWarnings(): array
bool(true)
bool(true)
