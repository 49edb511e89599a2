--TEST--
Tokens are >= 32 lowercase hex chars, unique across many calls and across processes, and not time-based
--EXTENSIONS--
redlock
--FILE--
<?php
require __DIR__ . '/../inc/redlock_test.inc';
[$server] = rt_servers(1, 2.0);
$port = $server[1];
$prefix = rt_key();

$tokens = [];
$redlock = new RedLock([$server], 10, 1);
for ($i = 0; $i < 300; $i++) {
    $lock = $redlock->lock("$prefix:$i", 10000);
    $tokens[] = $lock['token'];
    $redlock->unlock($lock);
}

// Child processes, each with its own RedLock, run at the same time.
$php = PHP_BINARY . ' ' . (getenv('TEST_PHP_EXTRA_ARGS') ?: '');
$code = '$r = new RedLock([["127.0.0.1", ' . $port . ', 2.0]], 10, 1);'
    . ' for ($i = 0; $i < 100; $i++) { $l = $r->lock("' . $prefix . ':child" . getmypid() . ":$i", 10000);'
    . ' echo $l ? $l["token"] : "FAILED", "\n"; $r->unlock($l); }';
$children = [];
for ($c = 0; $c < 4; $c++) {
    $proc = proc_open("$php -r " . escapeshellarg($code), [1 => ['pipe', 'w'], 2 => ['pipe', 'w']], $pipes);
    $children[] = [$proc, $pipes];
}
$fromChildren = 0;
foreach ($children as [$proc, $pipes]) {
    $out = stream_get_contents($pipes[1]);
    $err = stream_get_contents($pipes[2]);
    $status = proc_close($proc);
    if ($status !== 0 || $err !== '') {
        echo "child failed ($status): $err\n";
    }
    foreach (explode("\n", trim($out)) as $t) {
        $tokens[] = $t;
        $fromChildren++;
    }
}

echo "tokens: ", count($tokens), " (", $fromChildren, " from children)\n";
echo "distinct: ", count(array_unique($tokens)), "\n";
echo "all >= 32 lowercase hex: ", var_export(array_filter($tokens, fn ($t) => !preg_match('/^[0-9a-f]{32,}$/', $t)) === [], true), "\n";
// A clock-based token (uniqid) shares its leading digits with its neighbours; random ones do not.
$heads = array_unique(array_map(fn ($t) => substr($t, 0, 8), $tokens));
echo "distinct first 8 chars: ", var_export(count($heads) >= count($tokens) - 5, true), "\n";
?>
--EXPECT--
tokens: 700 (400 from children)
distinct: 700
all >= 32 lowercase hex: true
distinct first 8 chars: true
