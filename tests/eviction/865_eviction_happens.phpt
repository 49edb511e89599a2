--TEST--
Why the guard exists: under memory pressure a held lock's key is evicted by allkeys-lru and, first of all, by volatile-lru (our keys have a ttl, the cache's filler here has none); validity() then says the lock is gone; noeviction refuses the filler (OOM) and keeps the lock; volatile-lru, once our key is gone, refuses it too. Filler bounded: 10 KB values, at most 8000 writes (the lock key went after 300 to 1,500 of them with allkeys-lru, 274 with volatile-lru)
--EXTENSIONS--
redlock
--FILE--
<?php
require __DIR__ . '/../inc/redlock_test.inc';
$key = rt_key();
$value = str_repeat('x', 10240);
foreach (['allkeys-lru', 'volatile-lru', 'noeviction'] as $policy) {
    $srv = rt_spawn_server(['--maxmemory', '4mb', '--maxmemory-policy', $policy]);
    $redlock = new RedLock([['127.0.0.1', $srv['port'], 3.0]], 10, 1);
    $lock = $redlock->lock($key, 60000);
    $writes = 0;
    $refused = 0;
    $gone = false;
    $deadline = microtime(true) + 20 * rt_time_scale();
    while ($writes < 8000 && microtime(true) < $deadline) {
        $reply = rt_redis($srv['port'], 'SET', "filler:$writes", $value); // the cache's own keys: no ttl
        $writes++;
        $refused += $reply instanceof RuntimeException && str_starts_with($reply->getMessage(), 'OOM') ? 1 : 0;
        if ($refused >= 20) {
            break; // noeviction: the filler is what fails
        }
        if ($writes % 50 === 0 && rt_redis($srv['port'], 'EXISTS', $key) === 0) {
            $gone = true;
            break;
        }
    }
    $gone = rt_redis($srv['port'], 'EXISTS', $key) === 0;
    $validity = $redlock->validity($lock);
    printf("%s: warning %s; lock key %s; validity() %s; filler refused %s\n", $policy,
        $redlock->getServerWarnings()[0] === null ? 'none' : 'yes', $gone ? 'evicted' : 'kept',
        $validity === false ? 'false' : 'positive', $refused > 0 ? 'yes' : 'no');
    if (getenv('REDLOCK_EVICTION_FIGURES')) {
        fprintf(STDERR, "%s: %d filler writes, evicted_keys=%d\n", $policy, $writes, rt_info($srv['port'], 'evicted_keys'));
    }
    rt_stop_server($srv);
}
?>
--EXPECT--
allkeys-lru: warning yes; lock key evicted; validity() false; filler refused no
volatile-lru: warning yes; lock key evicted; validity() false; filler refused yes
noeviction: warning none; lock key kept; validity() positive; filler refused yes
