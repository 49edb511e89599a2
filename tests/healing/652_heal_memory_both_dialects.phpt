--TEST--
Self-healing on memory:// servers, with and without scripts (SET IFEQ PX, then SET NX PX where a member said no): a DEL (as a restart without persistence) on 1, then 2 of 5 is written back by the next extend(); another owner's key stays; with 3 of 5 gone extend() is false and nothing is written back; several keys without scripts (MSETEX NX) too
--EXTENSIONS--
redlock
--SKIPIF--
<?php if (PHP_OS_FAMILY === 'Windows') die('skip memory:// needs unix sockets'); ?>
--FILE--
<?php
require __DIR__ . '/../inc/redlock_test.inc';
/* A client of our own on memory server $name's socket (found as in tests/memory/991). */
function memory_command(string $name, string ...$args): mixed
{
    static $links = [];
    if (!isset($links[$name])) {
        $inodes = [];
        foreach (glob('/proc/self/fd/*') as $fd) {
            if (preg_match('/^socket:\[(\d+)\]$/', (string) @readlink($fd), $m)) {
                $inodes[$m[1]] = true;
            }
        }
        foreach (file('/proc/net/unix') as $line) {
            $f = preg_split('/\s+/', trim($line));
            if (count($f) >= 8 && isset($inodes[$f[6]]) && preg_match('#/redlock-memory\.[^/]+/' . $name . '$#', $f[7])) {
                $links[$name] = stream_socket_client('unix://' . $f[7], $errno, $errstr, 2.0);
                stream_set_timeout($links[$name], 5);
            }
        }
    }
    $out = '*' . count($args) . "\r\n";
    foreach ($args as $a) {
        $out .= '$' . strlen($a) . "\r\n$a\r\n";
    }
    fwrite($links[$name], $out);
    return rt_read_reply($links[$name]);
}
$names = ['ha', 'hb', 'hc', 'hd', 'he'];
$servers = array_map(fn ($n) => "memory://$n", $names);
$ttl = 10000;

foreach ([true, false] as $scripts) {
    echo "== scripts ", var_export($scripts, true), "\n";
    RedLockMemory::reset();
    $r = new RedLock($servers, 10, 0, ['scripts' => $scripts]);
    $lock = $r->lock('res', $ttl);
    $get = fn (int $m, string $k = 'res') => memory_command($names[$m], 'GET', $k);
    $heal = function (array $lock, array $lost, array $keys = ['res']) use ($r, $get, $ttl): string {
        for ($i = 1; $i <= 5; $i++) {
            if (!is_array($r->extend($lock, $ttl))) {
                return 'extend() false';
            }
            $back = function () use ($lost, $keys, $get, $lock) {
                foreach ($lost as $m) {
                    foreach ($keys as $k) {
                        if ($get($m, $k) !== $lock['token']) {
                            return false;
                        }
                    }
                }
                return true;
            };
            if (rt_eventually($back, 0.3 * rt_time_scale())) { // the write-back may land after extend() returned
                return 'healed';
            }
        }
        return 'not healed after 5 extends';
    };
    var_dump(is_array($lock));
    memory_command('hb', 'DEL', 'res');
    echo "1 of 5: ", $heal($lock, [1]), ", ms left there ", memory_command('hb', 'PTTL', 'res') > $ttl - 1000 * rt_time_scale() ? 'about the ttl' : 'wrong', "\n";
    memory_command('hc', 'DEL', 'res');
    memory_command('he', 'DEL', 'res');
    echo "2 of 5: ", $heal($lock, [2, 4]), "\n";
    memory_command('ha', 'SET', 'res', 'another-owner', 'PX', '60000');
    $r->extend($lock, $ttl);
    $r->extend($lock, $ttl);
    usleep(100000);
    echo "another owner's key: ", $get(0), "\n";
    memory_command('hb', 'DEL', 'res');
    memory_command('hc', 'DEL', 'res');
    echo "3 of 5 gone: ", var_export($r->extend($lock, $ttl), true);
    usleep(200000);
    echo ", written back: ", json_encode([$get(0), $get(1), $get(2)]), "\n";
    if (!$scripts) {
        $multi = $r->lock(['m1', 'm2'], $ttl);
        memory_command('hd', 'DEL', 'm1', 'm2');
        echo "several keys: ", $heal($multi, [3], ['m1', 'm2']), "\n";
    }
}
?>
--EXPECT--
== scripts true
bool(true)
1 of 5: healed, ms left there about the ttl
2 of 5: healed
another owner's key: another-owner
3 of 5 gone: false, written back: ["another-owner",null,null]
== scripts false
bool(true)
1 of 5: healed, ms left there about the ttl
2 of 5: healed
another owner's key: another-owner
3 of 5 gone: false, written back: ["another-owner",null,null]
several keys: healed
