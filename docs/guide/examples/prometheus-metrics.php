<?php
// RedLock::metrics() in Prometheus' text format: serve it from a /metrics route of each PHP-FPM
// pool (the counters are per process: let Prometheus sum the workers, or use one scrape per worker).
//   php prometheus-metrics.php
function redlock_prometheus(): string
{
    $m = RedLock::metrics();
    $out = "# TYPE redlock_calls_total counter\n";
    foreach (['acquired', 'contended', 'failed', 'released', 'extended', 'lost', 'renewals', 'observer_errors'] as $k) {
        $out .= "redlock_calls_total{outcome=\"$k\"} {$m[$k]}\n";
    }
    $out .= "# TYPE redlock_wait_ms histogram\n";
    foreach ($m['wait_ms']['buckets'] as $le => $n) {
        $out .= "redlock_wait_ms_bucket{le=\"$le\"} $n\n";
    }
    $out .= "redlock_wait_ms_sum {$m['wait_ms']['sum']}\nredlock_wait_ms_count {$m['wait_ms']['count']}\n";
    $out .= "# TYPE redlock_server_errors_total counter\n";
    foreach ($m['server_errors'] as $server => $errors) {
        foreach ($errors as $class => $n) {
            $out .= "redlock_server_errors_total{server=\"$server\",class=\"$class\"} $n\n";
        }
    }
    $out .= "# TYPE redlock_server_may_evict_locks gauge\n"; // 1: its maxmemory-policy can evict lock keys
    foreach ($m['server_policies'] as $server => $policy) {
        $out .= "redlock_server_may_evict_locks{server=\"$server\",policy=\"$policy\"} " . ($policy === 'noeviction' ? 0 : 1) . "\n";
    }
    return $out;
}

if (PHP_SAPI === 'cli') {
    $r = new RedLock([['127.0.0.1', (int) ($argv[1] ?? 6379), 0.5]]);
    $r->unlock($r->lock('prometheus-demo', 1000));
    echo redlock_prometheus();
}
