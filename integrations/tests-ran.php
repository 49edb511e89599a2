<?php
// Did every test of an integration's suite run? integrations/tests-ran.php TESTS_DIR JUNIT_XML
// Every public test method of every *Test.php under TESTS_DIR must appear in PHPUnit's JUnit log
// (run, skipped or failed): a test class or method that silently stops being collected (a renamed
// file, a wrong suffix, a method PHPUnit no longer sees) fails the run instead of shrinking it.
[$dir, $junit] = [$argv[1] ?? '', $argv[2] ?? ''];
$expected = [];
foreach (glob("$dir/*Test.php") as $file) {
    preg_match_all('/public function (test\w*)\s*\(/', file_get_contents($file), $m);
    foreach ($m[1] as $method) {
        $expected[basename($file, '.php') . '::' . $method] = true;
    }
}
$ran = [];
$xml = @simplexml_load_file($junit);
if ($xml === false) {
    fwrite(STDERR, "tests-ran: no JUnit log at $junit\n");
    exit(1);
}
foreach ($xml->xpath('//testcase') as $case) {
    $class = substr(strrchr('\\' . (string) $case['class'], '\\'), 1);
    $method = preg_replace('/ with data set .*$/', '', (string) $case['name']);
    $ran["$class::$method"] = true;
}
$missing = array_keys(array_diff_key($expected, $ran));
printf("%s: %d test methods in %d files, %d did not run%s\n", basename(dirname($dir)), count($expected),
    count(glob("$dir/*Test.php")), count($missing), $missing ? ': ' . implode(', ', $missing) : '');
exit($missing ? 1 : 0);
