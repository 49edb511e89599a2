--TEST--
The option list agrees everywhere it is written: the parser (its unknown-option message and, with the source tree, its table in ext/arguments/redlock_options.c), the stub's @param $options, docs/guide/options.md's table, test 300's expected message and the combination generator (a dimension of cx_combinations() or in CX_OPTIONS_ELSEWHERE)
--EXTENSIONS--
redlock
--SKIPIF--
<?php
$root = dirname(__DIR__, 2);
foreach (['ext/arguments/redlock_options.c', 'ext/redlock.stub.php', 'docs/guide/options.md'] as $f) {
    if (!is_file("$root/$f")) {
        die("skip needs the source tree ($f is absent: an installed package ships no sources)");
    }
}
?>
--FILE--
<?php
require __DIR__ . '/../inc/redlock_test.inc';
define('CX_MEMORY', true); // the generator's memory:// dimension ('scripts' => false) counts too
require __DIR__ . '/../inc/combinations.inc';
$root = dirname(__DIR__, 2);

/** @return list<string> sorted, unique */
function names(array $list): array
{
    $list = array_values(array_unique($list));
    sort($list);
    return $list;
}

$lists = [];
// 1. The parser, as users see it: the unknown-option message names the known ones.
try {
    new RedLock([['127.0.0.1', 6379, 0.1]], 0, 1, ['no such option' => 1]); // refused before any connection
    $lists['parser message'] = [];
} catch (ValueError $e) {
    preg_match('/\(known: ([^)]*)\)/', $e->getMessage(), $m) or die('no (known: ...) in: ' . $e->getMessage());
    $lists['parser message'] = explode(', ', $m[1]);
}
// 2. The parser's table: a row {"name", parser} each.
$src = file_get_contents("$root/ext/arguments/redlock_options.c");
preg_match_all('/^\s*\{"(\w+)", parse_\w+\},$/m', $src, $m);
$lists['parser branches'] = $m[1];
// 3. The stub's @param array $options, up to the combinations it refuses.
$stub = file_get_contents("$root/ext/redlock.stub.php");
preg_match('/@param array \$options(.*?)a combination that cannot work/s', $stub, $m) or die('no @param array $options in the stub');
preg_match_all('/(?:^|[\s,;*])(\w+) \(/', $m[1], $n);
$lists['stub'] = $n[1];
// 4. The guide's option table: the first cell of each row, every `name` in it.
$guide = file_get_contents("$root/docs/guide/options.md");
preg_match('/^\| option \|.*?\n((?:\|.*\n)+)/m', $guide, $m) or die('no option table in docs/guide/options.md');
$lists['guide table'] = [];
foreach (explode("\n", trim($m[1])) as $row) {
    $cell = explode('|', $row)[1];
    if (preg_match_all('/`(\w+)`/', $cell, $n)) {
        array_push($lists['guide table'], ...$n[1]);
    }
}
// 5. Test 300's expected message.
$t300 = file_get_contents(__DIR__ . '/300_options_validation.phpt');
preg_match('/\(known: ([^)]*)\)/', substr($t300, strpos($t300, '--EXPECT--')), $m) or die('no (known: ...) in test 300');
$lists['test 300'] = explode(', ', $m[1]);
// 6. The combination generator: its dimensions, the callables it sets on each combination, and the rest named.
$generated = [];
foreach (cx_combinations() as $c) {
    array_push($generated, ...array_keys($c['options']));
}
preg_match_all("/^\s*'(observer|onLoss)' => function/m", file_get_contents(__DIR__ . '/../inc/combinations.inc'), $m);
$lists['generator'] = array_merge($generated, $m[1], array_keys(CX_OPTIONS_ELSEWHERE));

$reference = names($lists['parser message']);
echo count($reference), " options: ", implode(', ', $reference), "\n";
foreach ($lists as $where => $list) {
    $list = names($list);
    $missing = array_diff($reference, $list);
    $extra = array_diff($list, $reference);
    echo str_pad($where, 16), $missing || $extra
        ? 'DISAGREES: lacks [' . implode(', ', $missing) . '], has more [' . implode(', ', $extra) . ']'
        : 'agrees', "\n";
}
?>
--EXPECT--
15 options: abortOnLoss, autoExtend, driftFactor, evictingServers, fair, fencing, maxConnectionSets, maxExtensions, observer, onLoss, persistent, prefix, quorum, scripts, waitTimeout
parser message  agrees
parser branches agrees
stub            agrees
guide table     agrees
test 300        agrees
generator       agrees
