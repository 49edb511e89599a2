<?php
/* PHP-level fuzz: random values at every constructor and method argument of RedLock, bounded in
 * count and time. Only TypeError / ValueError / ArgumentCountError / Error (uninitialized object)
 * or well-formed results are allowed; any warning, notice, other exception or malformed result
 * is a failure (exit 1). A crash kills the process (non-zero exit, no summary line).
 *
 *   php -d extension=modules/redlock.so fuzz/php_fuzz.php [ITERATIONS=20000] [SECONDS=300] [SEED]
 *
 * Network: only 127.0.0.1 / localhost. Live servers come from REDLOCK_TEST_SERVERS (the suite's 5,
 * e.g. started by scripts/redis-servers.sh); other ports are ones with nothing listening. Host
 * names come from a fixed list, never random, so no DNS lookup leaves the machine. */

$iterations = (int) ($argv[1] ?? 20000);
$seconds = (float) ($argv[2] ?? 300);
$seed = (int) ($argv[3] ?? random_int(0, PHP_INT_MAX));
mt_srand($seed);

$live = [];
foreach (array_filter(explode(',', (string) getenv('REDLOCK_TEST_SERVERS'))) as $item) {
    $live[] = (int) explode(':', $item)[1];
}
$dead = [];
for ($i = 0; $i < 4; $i++) {
    $s = stream_socket_server('tcp://127.0.0.1:0');
    $name = stream_socket_get_name($s, false);
    fclose($s);
    $dead[] = (int) substr($name, strrpos($name, ':') + 1);
}

function pick(array $list): mixed
{
    return $list[mt_rand(0, count($list) - 1)];
}

function random_bytes_str(int $max): string
{
    $n = mt_rand(0, $max);
    return $n ? random_bytes($n) : '';
}

function random_scalar(): mixed
{
    return match (mt_rand(0, 11)) {
        0 => null,
        1 => (bool) mt_rand(0, 1),
        2 => pick([0, 1, -1, 2, 200, 1000, PHP_INT_MAX, PHP_INT_MIN, PHP_INT_MAX - 1, 65535, 65536, 2 ** 53]),
        3 => mt_rand(PHP_INT_MIN, PHP_INT_MAX),
        4 => pick([0.0, -0.0, 0.5, 1.5, -1.5, NAN, INF, -INF, 1e300, 5e-324, 0.001, 1e19]),
        5 => mt_rand() / mt_getrandmax() * pick([1, 1000, 1e12]),
        6 => random_bytes_str(16),
        7 => pick(['', '0', '1', '10', ' 10', '10 ', '1e3', '0x1A', 'abc', "\0", "1\0", '-1', '9999999999999999999999']),
        8 => str_repeat(chr(mt_rand(0, 255)), pick([1, 100, 70000])),
        9 => new stdClass(),
        10 => pick([STDIN, fn () => 1, new ArrayObject([1]), new DateTime('@0')]),
        default => [],
    };
}

function random_host(): mixed
{
    return mt_rand(0, 5) ? pick(['127.0.0.1', 'localhost', '127.0.0.1', '/nonexistent/redlock-fuzz.sock'])
        : pick(['', "127.0.0.1\0", "\0", 7, null, ['127.0.0.1'], 1.5]);
}

function random_server(): mixed
{
    global $live, $dead;
    if (mt_rand(0, 9) === 0) {
        return random_scalar();
    }
    $port = mt_rand(0, 5) ? pick(array_merge($live, $dead)) : random_scalar();
    $entry = [random_host(), $port];
    if (mt_rand(0, 3)) {
        $entry[] = mt_rand(0, 4) ? pick([0.05, 0.1, 0, 1]) : random_scalar();
    }
    if (mt_rand(0, 15) === 0) {
        $entry[] = random_scalar(); /* a 4th element */
    }
    if (mt_rand(0, 15) === 0) {
        $entry = ['host' => $entry[0], 'port' => $entry[1]]; /* string keys */
    }
    return $entry;
}

function random_servers(): mixed
{
    if (mt_rand(0, 9) === 0) {
        return random_scalar();
    }
    $list = [];
    $n = pick([0, 1, 1, 2, 3, 3, 5, 5, 7, 20]);
    for ($i = 0; $i < $n; $i++) {
        $list[mt_rand(0, 8) ? $i : random_bytes_str(3)] = random_server();
    }
    return $list;
}

function random_lock_array(?array $real): mixed
{
    if ($real !== null && mt_rand(0, 1)) {
        $copy = $real;
        switch (mt_rand(0, 5)) {
            case 0: return $copy;
            case 1: $copy['token'] = substr($copy['token'], 0, mt_rand(0, 31)); return $copy;
            case 2: $copy['resource'] = random_scalar(); return $copy;
            case 3: unset($copy[pick(['token', 'resource', 'validity'])]); return $copy;
            case 4: $copy['token'] = random_scalar(); return $copy;
            default: return $copy + [random_bytes_str(4) => random_scalar()];
        }
    }
    return mt_rand(0, 3) ? ['resource' => mt_rand(0, 3) ? 'fuzz:' . random_bytes_str(8) : random_scalar(),
        'token' => mt_rand(0, 3) ? bin2hex(random_bytes(16)) : random_scalar()] : random_scalar();
}

$stats = ['calls' => 0, 'ok' => 0, 'TypeError' => 0, 'ValueError' => 0, 'ArgumentCountError' => 0, 'Error' => 0,
    'deprecations' => 0, 'locks' => 0, 'failures' => 0];
$failures = [];
set_error_handler(function (int $no, string $msg) use (&$stats, &$failures) {
    if ($no === E_DEPRECATED) {
        $stats['deprecations']++; /* null/float-with-fraction to int in coercive mode */
        return true;
    }
    $failures[] = "PHP error $no: $msg";
    return true;
});

function check_lock_result(mixed $r, string $resource): ?string
{
    if ($r === false) {
        return null;
    }
    if (!is_array($r) || array_keys($r) !== ['validity', 'resource', 'token'] || !is_float($r['validity'])
        || $r['validity'] <= 0 || $r['resource'] !== $resource || !is_string($r['token'])
        || !preg_match('/^[0-9a-f]{32}$/', $r['token'])) {
        return 'malformed lock result: ' . var_export($r, true);
    }
    return null;
}

$objects = [];
$start = microtime(true);
for ($i = 0; $i < $iterations && microtime(true) - $start < $seconds; $i++) {
    $what = mt_rand(0, 9);
    $stats['calls']++;
    try {
        if ($what <= 2 || !$objects) {
            $args = [random_servers()];
            if (mt_rand(0, 2)) {
                $args[] = mt_rand(0, 2) ? mt_rand(0, 30) : random_scalar();
            }
            if (mt_rand(0, 2)) {
                $args[] = mt_rand(0, 2) ? mt_rand(0, 3) : random_scalar();
            }
            if (mt_rand(0, 30) === 0) {
                $args[] = random_scalar();
            }
            $o = mt_rand(0, 40) ? new RedLock(...$args)
                : (new ReflectionClass(RedLock::class))->newInstanceWithoutConstructor(); /* never initialized */
            /* only objects that cannot sleep for long are used for lock() later */
            $delay = $args[1] ?? 200;
            $count = $args[2] ?? 3;
            $sane = is_int($delay) && $delay <= 30 && is_int($count) && $count <= 3;
            $objects[] = [$o, $sane];
            if (count($objects) > 16) {
                array_shift($objects);
            }
        } elseif ($what <= 6) {
            [$o, $sane] = pick($objects);
            if (!$sane) {
                /* a failing lock() there could sleep retryDelay (up to PHP_INT_MAX ms) */
                $stats['calls']--;
                continue;
            }
            $resource = mt_rand(0, 3) ? 'fuzz:' . random_bytes_str(12) : random_scalar();
            $ttl = mt_rand(0, 3) ? mt_rand(1, 2000) : random_scalar();
            $r = $o->lock($resource, $ttl);
            $bad = check_lock_result($r, is_scalar($resource) ? (string) $resource : '');
            if ($bad !== null) {
                $failures[] = $bad;
            }
            if ($r !== false) {
                $stats['locks']++;
                $GLOBALS['lastLock'] = $r;
            }
        } elseif ($what <= 8) {
            [$o] = pick($objects);
            $r = $o->unlock(random_lock_array($GLOBALS['lastLock'] ?? null));
            if (!is_bool($r)) {
                $failures[] = 'unlock returned ' . get_debug_type($r);
            }
        } else {
            /* the same object, odd call shapes (lock() only where it cannot sleep for long) */
            [$o, $sane] = pick($objects);
            $n = mt_rand(0, 3);
            $args = array_map(fn () => random_scalar(), range(1, max(1, $n)));
            $method = pick($sane ? ['lock', 'unlock', '__construct'] : ['unlock', '__construct']);
            $o->$method(...array_slice($args, 0, $n));
        }
        $stats['ok']++;
    } catch (ArgumentCountError $e) {
        $stats['ArgumentCountError']++;
    } catch (TypeError $e) {
        $stats['TypeError']++;
    } catch (ValueError $e) {
        $stats['ValueError']++;
    } catch (Error $e) {
        if (!str_contains($e->getMessage(), 'not initialized')) {
            $failures[] = 'Error: ' . $e->getMessage();
        }
        $stats['Error']++;
    } catch (Throwable $e) {
        $failures[] = get_class($e) . ': ' . $e->getMessage();
    }
    if (count($failures) > 20) {
        break;
    }
}
$stats['failures'] = count($failures);
$stats['seconds'] = round(microtime(true) - $start, 1);
$stats['seed'] = $seed;
echo json_encode($stats), "\n";
foreach (array_slice($failures, 0, 10) as $f) {
    echo "FAILURE: ", substr($f, 0, 300), "\n";
}
echo $failures ? "PHP FUZZ: FAIL\n" : "PHP FUZZ: ok\n";
exit($failures ? 1 : 0);
