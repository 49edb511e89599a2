--TEST--
validity() without scripts against hostile EXEC replies (issue 24: the reply layer keeps EXEC's array within its caps): only [our token, a positive PTTL] is "held"; another token, nil, no expiry, a wrong count, a nested element, an integer where the token goes, an error inside the array or instead of it are "not held" or an error vote; a 100 kB element, an element nested 9 deep and a RESP3 element fail the stream as at the top level (protocol error, 64 KiB cap); after each, the next validity() is answered on a stream in step
--EXTENSIONS--
redlock
--FILE--
<?php
require __DIR__ . '/../inc/redlock_test.inc';
$token = str_repeat('ab', 16) . sprintf('%016x', 10000);
$bulk = fn (string $s) => '$' . strlen($s) . "\r\n$s\r\n";
$good = "*2\r\n" . $bulk($token) . ":9000\r\n";
$cases = [
    'ours, 9000 ms left' => $good,
    'another token' => "*2\r\n" . $bulk(str_repeat('cd', 16) . sprintf('%016x', 10000)) . ":9000\r\n",
    'nil (no key)' => "*2\r\n\$-1\r\n:-2\r\n",
    'ours without expiry' => "*2\r\n" . $bulk($token) . ":-1\r\n",
    'three elements' => "*3\r\n" . $bulk($token) . ":9000\r\n:1\r\n",
    'the token nested in an array' => "*2\r\n*1\r\n" . $bulk($token) . ":9000\r\n",
    'an integer for the token' => "*2\r\n:1\r\n:9000\r\n",
    'an error inside' => "*2\r\n-WRONGTYPE Operation against a key holding the wrong kind of value\r\n:9000\r\n",
    'EXECABORT' => "-EXECABORT Transaction discarded because of previous errors.\r\n",
    'a 100 kB element' => "*2\r\n\$100000\r\n" . str_repeat('x', 100000) . "\r\n:9000\r\n",
    'an element nested 9 deep' => "*2\r\n" . str_repeat("*1\r\n", 9) . ":1\r\n:9000\r\n",
    'a RESP3 map inside' => "*2\r\n%1\r\n+a\r\n+b\r\n:9000\r\n",
];
$steps = [];
foreach ($cases as $reply) {
    $steps[] = ['on' => 'EXEC', 'reply' => $reply];
    $steps[] = ['on' => 'EXEC', 'reply' => $good];
}
$port = rt_spawn_fake_redis($steps);
$r = new RedLock([['127.0.0.1', $port, 0.5]], 0, 1, ['scripts' => false]);
$lock = ['resource' => 'hostile', 'token' => $token];
foreach ($cases as $label => $reply) {
    $v = $r->validity($lock);
    $error = (string) $r->getLastErrors()[0];
    printf("%s: %s%s\n", $label, $v === false ? 'false' : ($v > 8000 && $v <= 9000 ? 'held' : var_export($v, true)),
        $error === '' ? '' : ' (' . substr($error, 0, 60) . ')');
    $v = $r->validity($lock);
    echo $v > 8000 && $v <= 9000 ? '' : "  the next one: " . var_export($v, true) . ' ' . substr((string) $r->getLastErrors()[0], 0, 60) . "\n";
}
?>
--EXPECTF--
ours, 9000 ms left: held
another token: false (taken)
nil (no key): false (taken)
ours without expiry: false (taken)
three elements: false (unexpected reply type)
the token nested in an array: false (unexpected reply type)
an integer for the token: false (unexpected reply type)
an error inside: false (WRONGTYPE Operation against a key holding the wrong kind of )
EXECABORT: false (EXECABORT Transaction discarded because of previous errors.)
a 100 kB element: false (protocol error: a reply longer than 64 KiB (a lock's replies)
an element nested 9 deep: false (protocol error: No support for nested multi bulk replies wit)
a RESP3 map inside: false (%crotocol error%s)
