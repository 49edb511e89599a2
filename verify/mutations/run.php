<?php
/* The suite's power: plants each mutation of verify/mutations/list into a scratch copy of the tree, rebuilds it
 * (incrementally: only the mutated object), runs the tests the mutation names, one at a time, and requires
 * one of them to fail. See verify/mutations/README.md. Usage (run through verify/mutations/run.sh):
 *   php verify/mutations/run.php [--check] [--no-baseline] [NAME...]
 *     --check        only check that every mutation's original text is found exactly once (no build)
 *     --no-baseline  skip running the named tests on the unmutated build first
 *     --sample=N     after checking the whole list, run N of its mutations, chosen by a seed
 *                    (REDLOCK_MUTATION_SEED, else the tree's commit): another sample each commit,
 *                    the same one when a commit is run again
 *     NAME...        only these mutations
 * Environment: REDLOCK_TEST_PORT (default 7701): first of the 5 servers started here, the tests' private
 * ports are in the block above it; REDLOCK_MUTATION_TREE (default .run/mutations/tree): the scratch copy. */
$root = dirname(__DIR__, 2);
chdir($root);
$args = array_slice($argv, 1);
$checkOnly = in_array('--check', $args, true);
$baseline = !in_array('--no-baseline', $args, true);
$only = array_values(array_filter($args, fn ($a) => !str_starts_with($a, '--')));
$sample = 0;
foreach ($args as $a) {
    if (preg_match('/^--sample=(\d+)$/', $a, $m)) {
        $sample = (int) $m[1];
    }
}
$started = microtime(true);

function say(string $line): void
{
    echo $line, "\n";
    flush();
}

/** The list: records of 'mutation NAME' then indented 'file', 'from', 'to', 'tests', 'why' lines;
 * from/to take C escapes (\n, \t, \\) so that an anchor may span two lines. */
function read_list(string $path): array
{
    $list = [];
    $current = null;
    foreach (file($path, FILE_IGNORE_NEW_LINES) as $n => $line) {
        if (trim($line) === '' || str_starts_with(ltrim($line), '#')) {
            continue;
        }
        if (preg_match('/^mutation\s+(\S+)\s*$/', $line, $m)) {
            if (isset($list[$m[1]])) {
                fwrite(STDERR, "verify/mutations/list:" . ($n + 1) . ": mutation $m[1] twice\n");
                exit(2);
            }
            $list[$m[1]] = ['name' => $m[1], 'line' => $n + 1];
            $current = $m[1];
            continue;
        }
        if ($current === null || !preg_match('/^\s+(file|from|to|tests|why|hiredis)\s(.*)$/', $line, $m)) {
            fwrite(STDERR, "verify/mutations/list:" . ($n + 1) . ": not understood: $line\n");
            exit(2);
        }
        $value = in_array($m[1], ['from', 'to'], true) ? stripcslashes(trim($m[2])) : trim($m[2]);
        $list[$current][$m[1]] = $m[1] === 'tests' ? preg_split('/\s+/', $value) : $value;
    }
    foreach ($list as $name => $mutation) {
        foreach (['file', 'from', 'to', 'tests'] as $field) {
            if (!isset($mutation[$field])) {
                fwrite(STDERR, "verify/mutations/list:{$mutation['line']}: mutation $name has no '$field'\n");
                exit(2);
            }
        }
    }
    return $list;
}

/** A test named 'basics/009' is tests/basics/009*.phpt; exactly one file must match. */
function test_file(string $root, string $short): ?string
{
    $found = glob("$root/tests/$short*.phpt");
    return count($found) === 1 ? substr($found[0], strlen($root) + 1) : null;
}

$list = read_list("$root/verify/mutations/list");
if ($only) {
    $unknown = array_diff($only, array_keys($list));
    if ($unknown) {
        fwrite(STDERR, 'no such mutation: ' . implode(', ', $unknown) . "\n");
        exit(2);
    }
    $list = array_intersect_key($list, array_flip($only));
}

/* The list must not rot silently: every original found exactly once, every test named exists. */
$rotten = [];
foreach ($list as $name => $m) {
    $source = @file_get_contents("$root/{$m['file']}");
    $count = $source === false ? -1 : substr_count($source, $m['from']);
    if ($count !== 1) {
        $rotten[] = "$name: the original text is found " . ($count < 0 ? 'nowhere (no such file)' : "$count times")
            . " in {$m['file']}: " . json_encode($m['from']);
    }
    foreach ($m['tests'] as $t) {
        if (test_file($root, $t) === null) {
            $rotten[] = "$name: test '$t' matches no single tests/$t*.phpt";
        }
    }
}
if ($rotten) {
    say("mutations: the list no longer matches the tree (update verify/mutations/list):");
    foreach ($rotten as $r) {
        say("  $r");
    }
    exit(2);
}
if ($checkOnly) {
    say(count($list) . " mutations, each original found exactly once");
    exit(0);
}
if ($sample > 0 && $sample < count($list)) {
    $seed = getenv('REDLOCK_MUTATION_SEED') ?: trim((string) shell_exec('git -C ' . escapeshellarg($root) . ' rev-parse HEAD 2>/dev/null'));
    $order = [];
    foreach (array_keys($list) as $name) {
        $order[$name] = md5("$seed $name");
    }
    asort($order);
    $list = array_intersect_key($list, array_slice($order, 0, $sample, true));
    say(count($order) . " mutations match the tree; $sample of them, chosen by the seed " . substr($seed, 0, 12) . ':');
}

function run(string $command, ?string &$output = null): int
{
    exec("$command 2>&1", $lines, $status);
    $output = implode("\n", $lines);
    return $status;
}

/* Starts servers with scripts/SCRIPT (redis-servers.sh or redis-cluster.sh) for every run: $startArgs before
 * the run dir $dir, stopped at exit. Their list (what the script prints), or exit 2 naming $what. */
function start_for_every_run(string $script, string $startArgs, string $dir, string $what): string
{
    if (run("bash scripts/$script start $startArgs " . escapeshellarg($dir), $list) !== 0) {
        say("mutations: the $what did not start: $list");
        exit(2);
    }
    register_shutdown_function(fn () => run("bash scripts/$script stop " . escapeshellarg($dir)));
    return trim($list);
}

/* The scratch tree: the tracked and new files, built there once; later runs
 * rebuild what changed. The tests run there too: those that start a child PHP load the module by its
 * path in the tree (tests/../modules/redlock.so), which must be the mutant. */
$tree = getenv('REDLOCK_MUTATION_TREE') ?: "$root/.run/mutations/tree";
@mkdir($tree, 0777, true);
/* Only files whose bytes differ are copied, with the time of the copy: make then rebuilds exactly
 * what changed since the last run (a mutant's object included: its source is restored here). */
exec('git ls-files -co --exclude-standard', $files, $status);
if ($status !== 0 || !$files) {
    say('mutations: git ls-files failed: run from a git checkout');
    exit(2);
}
$reconfigure = false;
foreach ($files as $file) {
    $from = "$root/$file";
    $to = "$tree/$file";
    if (is_file($from) && (!is_file($to) || md5_file($from) !== md5_file($to))) {
        @mkdir(dirname($to), 0777, true);
        copy($from, $to);
        chmod($to, fileperms($from) & 0777);
        $reconfigure = $reconfigure || in_array($file, ['config.m4', 'config.w32'], true);
    }
}
/* A changed source list or build flags: the scratch build starts afresh (its Makefile would
 * leave new files out, and objects built with the old flags in). */
if ($reconfigure && is_file("$tree/Makefile")) {
    run('cd ' . escapeshellarg($tree) . ' && make clean > /dev/null 2>&1; rm -f Makefile');
}
$make = 'cd ' . escapeshellarg($tree) . ' && nice -n 10 make -j2 >> ' . escapeshellarg("$tree/build.log");
if (!is_file("$tree/Makefile")) {
    say("mutations: building the scratch tree ($tree)");
    if (run('cd ' . escapeshellarg($tree) . ' && (phpize && ./configure) > build.log', $out) !== 0) {
        say("mutations: configure failed:\n$out");
        exit(2);
    }
}
if (run($make, $out) !== 0) {
    say("mutations: the unmutated tree does not build: see $tree/build.log");
    exit(2);
}
$module = "$tree/modules/redlock.so";
chdir($tree);

/* Servers, once for every run. */
$port = (int) (getenv('REDLOCK_TEST_PORT') ?: 7701);
putenv('REDLOCK_TEST_SERVERS=' . start_for_every_run('redis-servers.sh', "5 $port", "$root/.run/mutations/servers", 'servers'));
putenv("REDLOCK_TEST_PORT=$port");
putenv('NO_INTERACTION=1');
putenv('REPORT_EXIT_STATUS=1');
/* The cluster chapter's tests need a Redis Cluster (scripts/redis-cluster.sh): started once when a record
 * names one and none is given, at REDLOCK_TEST_CLUSTER_PORT (default REDLOCK_TEST_PORT + 100). */
$needsCluster = false;
foreach ($list as $m) {
    foreach ($m['tests'] as $t) {
        $needsCluster = $needsCluster || str_starts_with($t, 'cluster/');
    }
}
if ($needsCluster && !getenv('REDLOCK_TEST_CLUSTER')) {
    $clusterPort = (int) (getenv('REDLOCK_TEST_CLUSTER_PORT') ?: $port + 100);
    putenv('REDLOCK_TEST_CLUSTER=' . start_for_every_run('redis-cluster.sh', (string) $clusterPort, "$root/.run/mutations/cluster", 'cluster'));
}
$runTests = is_file("$root/run-tests.php") ? "$root/run-tests.php"
    : trim(shell_exec('php-config --extension-dir')) . '/build/run-tests.php';
// a copy that never runs a failed test again (scripts/no-retry.sh): a caught mutation's test ran twice before
$runTests = trim((string) shell_exec('bash scripts/no-retry.sh ' . escapeshellarg($runTests)));

/** The coroutine chapter's tests need Swoole: .ci/swoole.sh --build-only finds its cached build (or builds
 * it, or waits for nothing: a build already under way elsewhere is not joined, another is made). */
function swoole_so(): string
{
    static $so = null;
    if ($so === null) {
        $so = trim((string) shell_exec('bash ' . escapeshellarg(dirname(__DIR__, 2) . '/.ci/swoole.sh') . ' --build-only 2>/dev/null | tail -1'));
        if (!is_file($so)) {
            say('mutations: a record names a tests/coroutines test and Swoole could not be built (.ci/swoole.sh --build-only)');
            exit(2);
        }
    }
    return $so;
}

/** Runs tests with the scratch build; the names of those that did not pass. */
function failing(array $tests, string $runTests, string $module, string $extra = ''): array
{
    $coroutines = array_values(array_filter($tests, fn ($t) => str_contains("/$t", '/tests/coroutines/')));
    if ($coroutines && count($coroutines) < count($tests)) {
        return array_merge(failing(array_values(array_diff($tests, $coroutines)), $runTests, $module, $extra),
            failing($coroutines, $runTests, $module, $extra));
    }
    if ($coroutines) {
        $extra .= ' -d extension=' . escapeshellarg(swoole_so());
    }
    $list = implode(' ', array_map('escapeshellarg', $tests));
    run('php ' . escapeshellarg($runTests) . " -q $extra -d extension=" . escapeshellarg($module) . " $list", $out);
    $out = str_replace("\r", "\n", preg_replace('/\e\[[0-9;]*m/', '', $out)); // colours, progress lines
    $passed = preg_match_all('/^PASS .*\[(\S+\.phpt)\]\s*$/m', $out, $m) ? $m[1] : [];
    $failed = array_values(array_diff($tests, $passed));
    foreach ($failed as $test) { // what run-tests.php leaves of a failed test
        foreach (['diff', 'out', 'exp', 'log', 'php', 'sh', 'mem'] as $ext) {
            @unlink(substr($test, 0, -5) . $ext);
        }
    }
    return $failed;
}

if ($baseline) {
    $all = [];
    foreach ($list as $m) {
        foreach ($m['tests'] as $t) {
            $all[test_file($root, $t)] = true;
        }
    }
    $t0 = microtime(true);
    $bad = failing(array_keys($all), $runTests, $module, '-j2');
    if ($bad) { // two at a time on a loaded machine: once more, alone, before calling them broken
        $bad = array_values(array_filter($bad, fn ($t) => failing([$t], $runTests, $module) !== []));
    }
    if ($bad) {
        say('mutations: these tests fail without any mutation, so they can prove nothing: ' . implode(', ', $bad));
        exit(2);
    }
    say(sprintf('baseline: the %d named tests pass unmutated (%.0f s)', count($all), microtime(true) - $t0));
}

/* Mutations of code that only a newer hiredis reaches (the 'hiredis' field: its least version). */
exec('php -n -d extension=' . escapeshellarg($module) . ' --ri redlock', $info);
$hiredis = preg_match('/hiredis version => (\S+)/', implode("\n", $info), $v) ? $v[1] : '0';

$caught = $survived = $elsewhere = [];
foreach ($list as $name => $m) {
    $t0 = microtime(true);
    if (isset($m['hiredis']) && version_compare($hiredis, $m['hiredis'], '<')) {
        say(sprintf('%-28s not here: needs hiredis >= %s (this build: %s)', $name, $m['hiredis'], $hiredis));
        $elsewhere[] = $name;
        continue;
    }
    $path = "$tree/{$m['file']}";
    $original = file_get_contents($path);
    file_put_contents($path, str_replace($m['from'], $m['to'], $original));
    $built = run($make) === 0;
    $by = null;
    if ($built) {
        foreach ($m['tests'] as $t) {
            if (failing([test_file($root, $t)], $runTests, $module)) {
                $by = $t;
                break;
            }
        }
    }
    file_put_contents($path, $original);
    touch($path); // newer than the mutant's object: the next build recompiles it
    $took = microtime(true) - $t0;
    if (!$built) {
        say(sprintf('%-28s DOES NOT BUILD (%s): fix its replacement', $name, $m['file']));
        $survived[] = $name;
    } elseif ($by !== null) {
        say(sprintf('%-28s caught by %s (%.0f s)', $name, $by, $took));
        $caught[] = $name;
    } else {
        say(sprintf('%-28s SURVIVED %s (%.0f s): %s', $name, implode(' ', $m['tests']), $took, $m['why'] ?? ''));
        $survived[] = $name;
    }
}
run($make); // the scratch build back to the unmutated tree
say(sprintf('mutations: %d caught, %d survived, of %d (%s%.0f s)%s', count($caught), count($survived), count($list),
    $elsewhere ? count($elsewhere) . " need a newer hiredis than $hiredis, " : '',
    microtime(true) - $started, $survived ? ': ' . implode(', ', $survived) : ''));
exit($survived ? 1 : 0);
