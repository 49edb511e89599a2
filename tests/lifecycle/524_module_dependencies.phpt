--TEST--
The module declares what it needs: spl and standard, and random on PHP 8.2+ (ReflectionExtension::getDependencies())
--EXTENSIONS--
redlock
--FILE--
<?php
$deps = (new ReflectionExtension('redlock'))->getDependencies();
$expected = ['spl' => 'Required', 'standard' => 'Required'];
if (PHP_VERSION_ID >= 80200) {
    $expected['random'] = 'Required';
}
var_dump($deps === $expected);
foreach ($deps as $name => $kind) {
    if ($name !== 'random') { // PHP 8.1 has no ext/random: its CSPRNG is in standard
        echo "$name: $kind, loaded: ", var_export(extension_loaded($name), true), "\n";
    }
}
var_dump(PHP_VERSION_ID < 80200 || ($deps['random'] ?? null) === 'Required' && extension_loaded('random'));
// php --re shows them too.
$out = shell_exec(PHP_BINARY . ' ' . (getenv('TEST_PHP_EXTRA_ARGS') ?: '') . ' --re redlock');
var_dump(str_contains($out, 'Dependency [ spl (Required) ]'));
?>
--EXPECT--
bool(true)
spl: Required, loaded: true
standard: Required, loaded: true
bool(true)
bool(true)
