--TEST--
phpinfo() has a redlock section with the extension's version and the hiredis version it was built with
--EXTENSIONS--
redlock
--FILE--
<?php
ob_start();
phpinfo(INFO_MODULES);
$info = ob_get_clean();
$section = substr($info, strpos($info, "\nredlock\n"));
var_dump(str_contains($section, 'redlock support => enabled'));
var_dump(str_contains($section, 'redlock version => ' . phpversion('redlock')));
var_dump((bool) preg_match('/^hiredis version => \d+\.\d+\.\d+$/m', $section));
?>
--EXPECT--
bool(true)
bool(true)
bool(true)
