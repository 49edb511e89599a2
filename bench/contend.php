<?php
/**
 * One of P processes fighting over ONE resource: lock, unlock at once, again, until the
 * window closes. All P processes share the same window (wall-clock start and end), so their
 * counts add up to the resource's handoffs in that window.
 *
 *   php contend.php ext|baseline H:P,H:P RESOURCE START_UNIX_TIME SECONDS RETRY_DELAY_MS
 * Prints: acquired=.. refused=.. (refused = lock() returned false after all its retries)
 */
require __DIR__ . '/BaselineRedLock.php';
require __DIR__ . '/servers.php';

[$impl, $serverList, $resource, $startAt, $seconds, $retryDelay] = array_slice($argv, 1, 6) + array_fill(0, 6, null);
if (!in_array($impl, ['ext', 'baseline'], true) || !$serverList || !$resource || !is_numeric($startAt)
    || !is_numeric($seconds) || !is_numeric($retryDelay)) {
    fwrite(STDERR, "usage: php contend.php ext|baseline H:P,... RESOURCE START_UNIX_TIME SECONDS RETRY_DELAY_MS\n");
    exit(2);
}
$servers = bench_servers($serverList);
$class = $impl === 'ext' ? 'RedLock' : 'BaselineRedLock';
$redlock = new $class($servers, (int) $retryDelay, 3);
$endAt = (float) $startAt + min((float) $seconds, 600);
$wait = (float) $startAt - microtime(true);
if ($wait > 0) {
    usleep((int) min($wait * 1e6, 5e6));
}
$acquired = 0;
$refused = 0;
while (microtime(true) < $endAt) {
    $lock = $redlock->lock($resource, 1000);
    if ($lock === false) {
        $refused++;
        continue;
    }
    $acquired++;
    $redlock->unlock($lock);
}
printf("acquired=%d refused=%d\n", $acquired, $refused);
