--TEST--
The quorum is floor(N/2)+1 for N = 1..6 servers (N=3 needs 2, not all 3 as a float quorum of 2.5 would)
--EXTENSIONS--
redlock
--FILE--
<?php
require __DIR__ . '/../inc/redlock_test.inc';
$sixth = rt_spawn_server();
$all = array_merge(rt_servers(5, 2.0), [['127.0.0.1', $sixth['port'], 2.0]]);

for ($n = 1; $n <= 6; $n++) {
    $servers = array_slice($all, 0, $n);
    $redlock = new RedLock($servers, 10, 1);
    $line = [];
    for ($held = 0; $held <= $n; $held++) {
        $key = rt_key("n$n-held$held");
        for ($i = 0; $i < $held; $i++) {
            rt_redis($servers[$i][1], 'SET', $key, 'foreign', 'PX', '60000');
        }
        $lock = $redlock->lock($key, 10000);
        $line[] = $held . ($lock ? ' ok' : ' no');
        if ($lock && !$redlock->unlock($lock)) {
            $line[] = 'unlock failed';
        }
        foreach ($servers as $s) {
            rt_redis($s[1], 'DEL', $key);
        }
    }
    echo "N=$n, pre-held: ", implode(', ', $line), "\n";
}
?>
--EXPECT--
N=1, pre-held: 0 ok, 1 no
N=2, pre-held: 0 ok, 1 no, 2 no
N=3, pre-held: 0 ok, 1 ok, 2 no, 3 no
N=4, pre-held: 0 ok, 1 ok, 2 no, 3 no, 4 no
N=5, pre-held: 0 ok, 1 ok, 2 ok, 3 no, 4 no, 5 no
N=6, pre-held: 0 ok, 1 ok, 2 ok, 3 no, 4 no, 5 no, 6 no
