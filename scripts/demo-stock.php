<?php
/* The stock demo (seed 004): P processes sell from one stock counter with a read-check-decrement.
 * Without a lock they oversell; with RedLock around the read-check-decrement they never do.
 *
 *   php scripts/demo-stock.php SERVERS [STOCK] [PROCESSES]
 *     SERVERS: "127.0.0.1:7371,127.0.0.1:7372,127.0.0.1:7373" (the stock counter lives on the first)
 *   The unlocked round is repeated (up to PLAIN_RUNS times) while it happens not to oversell.
 *   Exits 1 if the run with RedLock oversold (or did not sell out), 0 otherwise.
 * Internally it runs itself as workers: demo-stock.php --worker MODE SERVERS DEADLINE. */

const STOCK_KEY = 'demo:stock';
const LOCK_KEY = 'demo:stock:lock';
/* Between reading the stock and decrementing it (REDLOCK_DEMO_WINDOW_US overrides). */
define('RACE_WINDOW_US', (int) (getenv('REDLOCK_DEMO_WINDOW_US') ?: 1000));
const PLAIN_RUNS = 3;         /* the race is timing-dependent: the unlocked run is repeated until it oversells */
const LOCK_TTL_MS = 1000;
const RUN_SECONDS = 120;      /* every loop below gives up after this */

/** A minimal RESP client (the demo needs no phpredis). */
final class Resp
{
    private $link;

    public function __construct(string $host, int $port)
    {
        $this->link = @stream_socket_client("tcp://$host:$port", $errno, $errstr, 2.0);
        if ($this->link === false) {
            fwrite(STDERR, "cannot reach redis at $host:$port: $errstr\n");
            exit(2);
        }
        stream_set_timeout($this->link, 10);
    }

    public function call(string ...$args): mixed
    {
        $out = '*' . count($args) . "\r\n";
        foreach ($args as $a) {
            $out .= '$' . strlen($a) . "\r\n$a\r\n";
        }
        fwrite($this->link, $out);
        return $this->read();
    }

    private function read(): mixed
    {
        $line = fgets($this->link);
        if ($line === false) {
            fwrite(STDERR, "redis closed the connection\n");
            exit(2);
        }
        $body = substr($line, 1, -2);
        switch ($line[0]) {
            case '+': return $body;
            case ':': return (int) $body;
            case '-': fwrite(STDERR, "redis error: $body\n"); exit(2);
            case '$':
                if ((int) $body < 0) {
                    return null;
                }
                $data = '';
                while (strlen($data) < (int) $body + 2) {
                    $chunk = fread($this->link, (int) $body + 2 - strlen($data));
                    if ($chunk === false || $chunk === '') {
                        exit(2);
                    }
                    $data .= $chunk;
                }
                return substr($data, 0, -2);
        }
        fwrite(STDERR, "unexpected reply: $line\n");
        exit(2);
    }
}

/** "h:p,h:p" -> [[h, p, timeout], ...] */
function parse_servers(string $list): array
{
    $servers = [];
    foreach (explode(',', $list) as $item) {
        [$host, $port] = explode(':', trim($item));
        $servers[] = [$host, (int) $port, 0.5];
    }
    return $servers;
}

/** One worker: sells until the stock looks empty; prints "sold N expired M". */
function worker(string $mode, array $servers, float $deadline): void
{
    $stock = new Resp($servers[0][0], $servers[0][1]);
    $redlock = $mode === 'lock' ? new RedLock($servers, 5, 3) : null;
    $sold = $expired = 0;
    fgets(STDIN); // wait for the coordinator's "go", so that every worker starts together

    while (microtime(true) < $deadline) {
        if ($redlock === null) {
            if ((int) $stock->call('GET', STOCK_KEY) <= 0) {
                break;
            }
            usleep(RACE_WINDOW_US);
            $stock->call('DECR', STOCK_KEY);
            $sold++;
            continue;
        }
        $lock = $redlock->lock(LOCK_KEY, LOCK_TTL_MS);
        if ($lock === false) {
            continue; // someone else is selling: try again
        }
        $start = hrtime(true);
        $left = (int) $stock->call('GET', STOCK_KEY);
        if ($left > 0) {
            usleep(RACE_WINDOW_US);
            // Only act while the lock is certainly still ours.
            if ((hrtime(true) - $start) / 1e6 < $lock['validity']) {
                $stock->call('DECR', STOCK_KEY);
                $sold++;
            } else {
                $expired++;
            }
        }
        $redlock->unlock($lock);
        if ($left <= 0) {
            break;
        }
    }
    echo "sold $sold expired $expired\n";
}

/** Runs $processes workers in $mode; returns [sold, final stock, expired, seconds]. */
function run(string $mode, string $serverList, int $initial, int $processes): array
{
    $servers = parse_servers($serverList);
    $stock = new Resp($servers[0][0], $servers[0][1]);
    foreach ($servers as [$host, $port]) {
        (new Resp($host, $port))->call('DEL', LOCK_KEY);
    }
    $stock->call('SET', STOCK_KEY, (string) $initial);

    $command = [PHP_BINARY];
    if (getenv('REDLOCK_SO')) {
        $command[] = '-d';
        $command[] = 'extension=' . getenv('REDLOCK_SO');
    }
    $deadline = microtime(true) + RUN_SECONDS;
    array_push($command, __FILE__, '--worker', $mode, $serverList, (string) $deadline);

    $workers = [];
    for ($i = 0; $i < $processes; $i++) {
        /* No descriptor 2: the worker inherits this process's stderr as it is. Passing STDERR (a
         * stream this process never wrote through, at position 0) makes proc_open() seek the shared
         * file description back to offset 0, so that under `demo.sh > log 2>&1` every later line
         * overwrote the start of the log. */
        $proc = proc_open($command, [0 => ['pipe', 'r'], 1 => ['pipe', 'w']], $pipes);
        if ($proc === false) {
            fwrite(STDERR, "cannot start a worker\n");
            exit(2);
        }
        $workers[] = [$proc, $pipes];
    }
    $t = microtime(true);
    foreach ($workers as [, $pipes]) {
        fwrite($pipes[0], "go\n");
        fclose($pipes[0]);
    }
    $sold = $expired = 0;
    foreach ($workers as [$proc, $pipes]) {
        $out = stream_get_contents($pipes[1]);
        $status = proc_close($proc);
        if ($status !== 0 || !preg_match('/^sold (\d+) expired (\d+)$/m', $out, $m)) {
            fwrite(STDERR, "a worker failed (exit $status): $out\n");
            exit(2);
        }
        $sold += (int) $m[1];
        $expired += (int) $m[2];
    }
    return [$sold, (int) $stock->call('GET', STOCK_KEY), $expired, microtime(true) - $t];
}

if (($argv[1] ?? '') === '--worker') {
    worker($argv[2], parse_servers($argv[3]), (float) $argv[4]);
    exit(0);
}

if (!extension_loaded('redlock')) {
    fwrite(STDERR, "the redlock extension is not loaded (php -d extension=modules/redlock.so ...)\n");
    exit(2);
}
$serverList = $argv[1] ?? '127.0.0.1:7371,127.0.0.1:7372,127.0.0.1:7373';
$initial = (int) ($argv[2] ?? 2000);
$processes = (int) ($argv[3] ?? 8);
printf("stock %d, %d processes, each: read stock; if > 0 wait %d us, then decrement\n",
    $initial, $processes, RACE_WINDOW_US);

for ($round = 1; $round <= PLAIN_RUNS; $round++) {
    [$sold, $left, , $seconds] = run('plain', $serverList, $initial, $processes);
    printf("without lock: sold %d of %d (%s), stock left %d, %.1f s\n", $sold, $initial,
        $sold > $initial ? 'oversold by ' . ($sold - $initial) : 'not oversold this time: the race depends on timing',
        $left, $seconds);
    if ($sold > $initial) {
        break;
    }
}

[$sold, $left, $expired, $seconds] = run('lock', $serverList, $initial, $processes);
$correct = $sold === $initial && $left === 0;
printf("with RedLock: sold %d of %d, %s, stock left %d, %.1f s%s\n", $sold, $initial,
    $correct ? 'never oversold' : ($sold > $initial ? 'OVERSOLD by ' . ($sold - $initial) : 'NOT SOLD OUT'),
    $left, $seconds, $expired ? ", $expired sales skipped because the lock's validity ran out" : '');
exit($correct ? 0 : 1);
