<?php
/* The list of checks (verify/README.md, "The checks") against what CI runs (.ci/run): one list, read by
 * CONTRIBUTING.md, the README and docs/testing.md, must say what CI does. Fails, naming the difference, when
 *   - a lane's steps in .ci/run (its `step LANE "TITLE" COMMAND` lines, in order, loops expanded, `env` and
 *     `bash -c '...'` unwrapped, ${VAR-default} read as its default; the last line of .ci/run is the lane
 *     `last`; the lane `setup` installs, it checks nothing) are not the list's commands of that lane, in order;
 *   - a path a command of the list names (verify/, scripts/, tests/, bench/, .ci/, integrations/, docs/) does
 *     not exist;
 *   - a folder of verify/ is not in the page's table of folders;
 *   - the README, CONTRIBUTING.md or docs/testing.md does not point to the list.
 *
 *   php verify/checks.php          "checks: ok (N steps of CI in M lanes, K checks)"; exit 1 on a difference
 *   php verify/checks.php --list   the steps of CI as the list has them, lane by lane (nothing runs)
 * Run by scripts/check-layers.sh (CI's "layers and links" step). Needs only php-cli. */

declare(strict_types=1);
$root = dirname(__DIR__);
chdir($root);
const PAGE = 'verify/README.md';
const ANCHOR = 'verify/README.md#the-checks';
const READERS = ['README.md', 'CONTRIBUTING.md', 'docs/testing.md'];

$problems = [];

/** The section of PAGE under the heading "## $title", up to the next "## ". */
function section(string $page, string $title): string
{
    if (!preg_match('/^## ' . preg_quote($title, '/') . '\n(.*?)(?=^## |\z)/ms', $page, $m)) {
        fwrite(STDERR, "checks: " . PAGE . " has no section \"## $title\"\n");
        exit(2);
    }
    return $m[1];
}

/** The rows of the first table of a section, each a list of cells (a "\|" stays inside its cell). */
function table_rows(string $section): array
{
    $rows = [];
    foreach (explode("\n", $section) as $line) {
        if (!str_starts_with($line, '|')) {
            if ($rows) {
                break;
            }
            continue;
        }
        $cells = array_map(fn ($c) => trim(str_replace('\|', '|', $c)), preg_split('/(?<!\\\\)\|/', trim($line, " |")));
        if (preg_match('/^-+$/', $cells[0])) {
            continue;
        }
        $rows[] = $cells;
    }
    array_shift($rows); // the header
    return $rows;
}

/** The steps .ci/run runs: [lane => [command, ...]] in order. */
function ci_steps(string $path): array
{
    $text = preg_replace('/\\\\\n\s*/', '', file_get_contents($path));
    $lines = explode("\n", $text);
    $steps = [];
    $loop = null; // [var, values]
    foreach ($lines as $line) {
        if (preg_match('/^\s*for (\w+) in ([^;]+); do\s*$/', $line, $m)) {
            $loop = [$m[1], preg_split('/\s+/', trim($m[2]))];
            continue;
        }
        if (preg_match('/^\s*done\b/', $line)) {
            $loop = null;
            continue;
        }
        if (!preg_match('/^\s*step\s+(\S+)\s+"(?:[^"\\\\]|\\\\.)*"\s+(.*?)(?:\s*\|\|\s*\w+=(?:1|\$\?))?\s*$/', $line, $m)) {
            continue;
        }
        [, $lane, $command] = $m;
        if ($lane === 'setup') {
            continue;
        }
        foreach ($loop ? $loop[1] : [null] as $value) {
            $steps[$lane][] = normalise($command, $loop ? [$loop[0] => $value] : []);
        }
    }
    /* The README's test command, alone after the lanes: the last line of .ci/run that runs scripts/test.sh. */
    $last = '';
    foreach (array_reverse($lines) as $line) {
        if (preg_match('~^(?:[A-Za-z_]+=\S*\s+)*bash scripts/test\.sh\b~', trim($line), $m)) {
            $last = preg_replace('~\s*\|\|.*$~', '', trim($line));
            break;
        }
    }
    $steps['last'][] = normalise($last, []);
    return $steps;
}

function normalise(string $command, array $vars): string
{
    $command = preg_replace_callback('/\$\{(\w+)-([^}]*)\}/', fn ($m) => $m[2], $command);
    foreach ($vars as $name => $value) {
        $command = preg_replace('/\$\{?' . $name . '\b\}?/', $value, $command);
    }
    $command = preg_replace('/^env\s+/', '', trim($command));
    if (preg_match("/^((?:\\w+=\\S+\\s+)*)bash -c '(.*)'$/", $command, $m)) {
        $command = $m[1] . $m[2];
    }
    return preg_replace('/\s+/', ' ', trim($command));
}

$page = file_get_contents(PAGE);
if ($page === false) {
    fwrite(STDERR, "checks: no " . PAGE . "\n");
    exit(2);
}

/* The list: [lane => [command, ...]] for the lanes CI has, every command for the paths. */
$list = [];
$commands = [];
$rows = table_rows(section($page, 'The checks'));
foreach ($rows as $i => $cells) {
    if (count($cells) !== 4) {
        $problems[] = PAGE . ", the checks, row " . ($i + 1) . ": " . count($cells) . " cells, not 4 (check, command, lane, time)";
        continue;
    }
    preg_match_all('/`([^`]+)`/', $cells[1], $m);
    if (!$m[1]) {
        $problems[] = PAGE . ", the checks, row " . ($i + 1) . " ($cells[0]): no command";
    }
    $commands = array_merge($commands, $m[1]);
    if ($cells[2] !== '—') {
        foreach ($m[1] as $c) {
            $list[$cells[2]][] = normalise($c, []);
        }
    }
}

if (in_array('--list', array_slice($argv, 1), true)) {
    foreach ($list as $lane => $steps) {
        foreach ($steps as $s) {
            printf("%-9s %s\n", $lane, $s);
        }
    }
    exit(0);
}

$ci = ci_steps('.ci/run');
$stepCount = 0;
foreach (array_unique(array_merge(array_keys($ci), array_keys($list))) as $lane) {
    $want = $ci[$lane] ?? [];
    $have = $list[$lane] ?? [];
    $stepCount += count($want);
    if (!isset($ci[$lane])) {
        $problems[] = PAGE . ": lane \"$lane\" is not a lane of .ci/run (its lanes: " . implode(', ', array_keys($ci)) . '; by hand: —)';
        continue;
    }
    for ($k = 0; $k < max(count($want), count($have)); $k++) {
        if (($want[$k] ?? null) !== ($have[$k] ?? null)) {
            $problems[] = "lane $lane, step " . ($k + 1) . ": .ci/run runs " . (isset($want[$k]) ? "`$want[$k]`" : 'nothing more')
                . ', ' . PAGE . ' says ' . (isset($have[$k]) ? "`$have[$k]`" : 'nothing more');
            break;
        }
    }
}

foreach ($commands as $c) {
    preg_match_all('#(?<![\w$./-])((?:verify|scripts|tests|bench|\.ci|integrations|docs)/[\w./-]*[\w/])#', $c, $m);
    foreach ($m[1] as $p) {
        if (!file_exists($p)) {
            $problems[] = PAGE . ": `$c` names $p, which does not exist";
        }
    }
}

$folders = section($page, 'The folders');
foreach (glob('verify/*', GLOB_ONLYDIR) as $dir) {
    if (!str_contains($folders, "`$dir/`")) {
        $problems[] = PAGE . ": the folder $dir/ is not in the table of folders";
    }
}

foreach (READERS as $reader) {
    if (!str_contains((string) @file_get_contents($reader), ANCHOR)) {
        $problems[] = "$reader does not point to the list of checks (" . ANCHOR . ')';
    }
}

if ($problems) {
    echo "checks: the list (" . PAGE . ") and CI (.ci/run) disagree:\n  " . implode("\n  ", $problems) . "\n";
    exit(1);
}
printf("checks: ok (%d steps of CI in %d lanes, %d checks)\n", $stepCount, count($ci), count($rows));
