<?php
/*
 * Rebuilds package.xml (the PECL package 2.0 manifest read by `pecl package`) from what git tracks,
 * so a file someone adds under ext/ or tests/ cannot be left out of the release tarball.
 *
 *   php scripts/package-xml.php           write package.xml
 *   php scripts/package-xml.php --check   exit 1, saying why, when package.xml is out of date
 *
 * The release version is PHP_REDLOCK_VERSION from ext/php_redlock.h. Both modes also check that
 * config.m4 and config.w32 build exactly the tracked ext/**.c files. Needs only php-cli and git.
 */

const PACKAGE_XML = 'package.xml';
const VERSION_HEADER = 'ext/php_redlock.h';
const MIN_PHP = '8.1.0'; /* ZEND_ACC_NOT_SERIALIZABLE; composer.json must say the same */
/* The PHP versions the whole suite passed on (scripts/matrix.sh, docs/evidence/platforms.md): keep in step. */
const TESTED_ON = 'PHP 8.2 (NTS and ZTS), 8.4, 8.5 and 8.6.0RC3 on Debian 12, 13 and experimental';

/* Which tracked files ship, and with which PEAR role. Anything else (scripts/, .ci/, docs/) does not. */
function role_of(string $path): ?string
{
	if (in_array($path, ['config.m4', 'config.w32'], true)) {
		return 'src';
	}
	if (in_array($path, ['README.md', 'LICENSE', 'CHANGELOG.md', 'CREDITS'], true)) {
		return 'doc';
	}
	if (str_starts_with($path, 'ext/')) {
		return preg_match('/\.(md|txt)$/', $path) ? 'doc' : 'src';
	}
	if (str_starts_with($path, 'tests/')) {
		return 'test';
	}
	return null;
}

function fail(string $message): never
{
	fwrite(STDERR, "package-xml: $message\n");
	exit(1);
}

function tracked_files(): array
{
	exec('git ls-files -z 2>/dev/null', $out, $status);
	if ($status !== 0) {
		fail('git ls-files failed: run this from a git checkout');
	}
	$files = array_filter(explode("\0", implode("\n", $out)), fn ($f) => $f !== '' && is_file($f));
	sort($files, SORT_STRING);
	return array_values($files);
}

function release_version(): string
{
	$header = @file_get_contents(VERSION_HEADER);
	if ($header === false || !preg_match('/^#define\s+PHP_REDLOCK_VERSION\s+"([^"]+)"/m', $header, $m)) {
		fail('no PHP_REDLOCK_VERSION in ' . VERSION_HEADER);
	}
	if (!preg_match('/^\d+\.\d+\.\d+((alpha|beta|RC)\d*)?$/', $m[1])) {
		fail("PHP_REDLOCK_VERSION \"$m[1]\" is not a PECL version (X.Y.Z, optionally followed by alphaN, betaN or RCN)");
	}
	return $m[1];
}

/* PEAR refuses "stable" below 1.0.0. */
function stability_of(string $version): string
{
	if (preg_match('/(alpha|beta)/', $version, $m)) {
		return $m[1];
	}
	if (str_contains($version, 'RC')) {
		return 'beta';
	}
	return version_compare($version, '1.0.0', '<') ? 'beta' : 'stable';
}

/* The sources each build file compiles, as paths relative to the root. */
function build_sources(): array
{
	$lists = [];
	$m4 = (string) @file_get_contents('config.m4');
	if (preg_match('/PHP_NEW_EXTENSION\(\s*\[?redlock\]?\s*,\s*\[?([^,\]]*)\]?\s*,/s', $m4, $m)) {
		$lists['config.m4'] = preg_split('/\s+/', trim($m[1]), -1, PREG_SPLIT_NO_EMPTY);
	} else {
		$lists['config.m4'] = null;
	}
	$w32 = (string) @file_get_contents('config.w32');
	if (preg_match('/EXTENSION\(\s*"redlock"\s*,(.*?),\s*PHP_REDLOCK_SHARED/s', $w32, $m)) {
		preg_match_all('/"([^"]*)"/', $m[1], $parts);
		$files = preg_split('/\s+/', trim(implode(' ', $parts[1])), -1, PREG_SPLIT_NO_EMPTY);
		/* The JS source writes "ext\\net\\rl_conn.c": an escaped backslash. */
		$lists['config.w32'] = array_map(fn ($f) => str_replace(['\\\\', '\\'], '/', $f), $files);
	} else {
		$lists['config.w32'] = null;
	}
	return $lists;
}

/* Problems with the build files' source lists, one line each. */
function source_list_problems(array $files): array
{
	$c_files = array_values(array_filter($files, fn ($f) => preg_match('#^ext/.+\.c$#', $f)));
	$problems = [];
	foreach (build_sources() as $build_file => $sources) {
		if (!in_array($build_file, $files, true)) {
			$problems[] = "$build_file is not tracked by git";
			continue;
		}
		if ($sources === null) {
			$problems[] = "$build_file: cannot find the redlock source list";
			continue;
		}
		foreach (array_diff($c_files, $sources) as $missing) {
			$problems[] = "$build_file does not build $missing";
		}
		foreach (array_diff($sources, $c_files) as $extra) {
			$problems[] = "$build_file builds $extra, which git does not track";
		}
	}
	return $problems;
}

/* composer.json (read by PIE) must agree with package.xml and config.m4. */
function composer_problems(): array
{
	$json = @file_get_contents('composer.json');
	if ($json === false) {
		return ['composer.json is missing'];
	}
	$composer = json_decode($json, true);
	if (!is_array($composer)) {
		return ['composer.json is not valid JSON: ' . json_last_error_msg()];
	}
	$problems = [];
	$want_php = '>=' . preg_replace('/\.0$/', '', MIN_PHP);
	if (($composer['type'] ?? null) !== 'php-ext') {
		$problems[] = 'composer.json: "type" must be "php-ext"';
	}
	if (($composer['php-ext']['extension-name'] ?? null) !== 'redlock') {
		$problems[] = 'composer.json: php-ext.extension-name must be "redlock"';
	}
	if (($composer['require']['php'] ?? null) !== $want_php) {
		$problems[] = "composer.json: require.php must be \"$want_php\" (package.xml says " . MIN_PHP . ')';
	}
	$m4 = (string) @file_get_contents('config.m4');
	foreach ($composer['php-ext']['configure-options'] ?? [] as $option) {
		$name = $option['name'] ?? '';
		if (!preg_match('/^(with|enable)-(.+)$/', $name, $m)
			|| !preg_match('/PHP_ARG_' . strtoupper($m[1]) . '\(\s*\[?' . preg_quote($m[2], '/') . '\]?\s*,/', $m4)) {
			$problems[] = "composer.json: configure option \"$name\" is not a PHP_ARG_WITH/PHP_ARG_ENABLE of config.m4";
		}
		if (!is_string($option['description'] ?? null) || !is_bool($option['needs-value'] ?? false)) {
			$problems[] = "composer.json: configure option \"$name\" needs a string description and a boolean needs-value";
		}
	}
	return $problems;
}

function xml(string $s): string
{
	return htmlspecialchars($s, ENT_XML1 | ENT_QUOTES, 'UTF-8');
}

/* path => role, as nested directories (as igbinary's package.xml lays them out): dir => [...], file => role. */
function tree_of(array $entries): array
{
	$tree = [];
	foreach ($entries as $path => $role) {
		$node = &$tree;
		$parts = explode('/', $path);
		$file = array_pop($parts);
		foreach ($parts as $dir) {
			$node[$dir . '/'] ??= [];
			$node = &$node[$dir . '/'];
		}
		$node[$file] = $role;
		unset($node);
	}
	return $tree;
}

function render_dir(array $tree, int $depth): string
{
	$pad = str_repeat(' ', $depth);
	$out = '';
	foreach ($tree as $name => $child) {
		if (is_array($child)) {
			$out .= $pad . '<dir name="' . xml(rtrim($name, '/')) . "\">\n" . render_dir($child, $depth + 1) . $pad . "</dir>\n";
		} else {
			$out .= $pad . '<file name="' . xml($name) . '" role="' . $child . "\"/>\n";
		}
	}
	return $out;
}

function render(string $version, string $date, array $entries): string
{
	$stability = stability_of($version);
	$min_php = MIN_PHP;
	$tested = TESTED_ON;
	$files = render_dir(tree_of($entries), 3);
	return <<<XML
<?xml version="1.0" encoding="UTF-8"?>
<!-- Generated by scripts/package-xml.php from git ls-files and PHP_REDLOCK_VERSION: do not edit by hand. -->
<package packagerversion="1.10.13" version="2.0" xmlns="http://pear.php.net/dtd/package-2.0" xmlns:tasks="http://pear.php.net/dtd/tasks-1.0">
 <name>redlock</name>
 <channel>pecl.php.net</channel>
 <summary>Redlock distributed locks over several independent Redis servers</summary>
 <description>A C implementation, over hiredis, of the Redlock algorithm: a lock is held when a strict
majority of independent Redis servers granted it within its validity time. Drop-in for the
PHP RedLock class: new RedLock(\$servers, \$retryDelay, \$retryCount), lock(\$resource, \$ttl),
unlock(\$lock). All servers are asked in parallel with a per-server timeout, a call is decided as
soon as the quorum is won or lost, tokens come from the CSPRNG, and an unreachable or hung
server counts as one lost vote instead of an exception or a 60 s stall.</description>
 <lead>
  <name>redlock developers</name>
  <user>redlock</user>
  <email>redlock@users.noreply.invalid</email>
  <active>yes</active>
 </lead>
 <date>$date</date>
 <version>
  <release>$version</release>
  <api>$version</api>
 </version>
 <stability>
  <release>$stability</release>
  <api>$stability</api>
 </stability>
 <license filesource="LICENSE">MIT</license>
 <notes>Release $version: see README.md. Tested on $tested (docs/evidence/platforms.md).</notes>
 <contents>
  <dir name="/">
$files  </dir>
 </contents>
 <dependencies>
  <required>
   <php>
    <min>$min_php</min>
   </php>
   <pearinstaller>
    <min>1.10.0</min>
   </pearinstaller>
  </required>
 </dependencies>
 <providesextension>redlock</providesextension>
 <extsrcrelease>
  <configureoption name="with-hiredis" default="autodetect" prompt="hiredis installation prefix (autodetect: pkg-config, /usr/local, /usr)"/>
 </extsrcrelease>
</package>

XML;
}

/* path => role, from an existing package.xml written by render(). */
function listed_entries(string $xml): array
{
	preg_match_all('#<dir name="([^"]+)">|</dir>|<file name="([^"]+)" role="([a-z]+)"\s*/>#', $xml, $m, PREG_SET_ORDER);
	$entries = [];
	$dirs = [];
	foreach ($m as $match) {
		if ($match[0] === '</dir>') {
			array_pop($dirs);
		} elseif (($match[2] ?? '') === '') {
			$dirs[] = html_entity_decode($match[1], ENT_XML1 | ENT_QUOTES, 'UTF-8');
		} else {
			$path = implode('/', array_filter(array_merge($dirs, [html_entity_decode($match[2], ENT_XML1 | ENT_QUOTES, 'UTF-8')]), fn ($p) => $p !== '/'));
			$entries[$path] = $match[3];
		}
	}
	return $entries;
}

function without_date(string $xml): string
{
	return preg_replace('#<date>[^<]*</date>#', '<date/>', $xml);
}

chdir(dirname(__DIR__));
$check = in_array('--check', array_slice($argv, 1), true);

$files = tracked_files();
$entries = [];
foreach ($files as $path) {
	$role = role_of($path);
	if ($role !== null) {
		$entries[$path] = $role;
	}
}
$version = release_version();
$existing = is_file(PACKAGE_XML) ? file_get_contents(PACKAGE_XML) : null;

/* Keep the release date while the version is unchanged, so rerunning changes nothing. */
$date = gmdate('Y-m-d');
if ($existing !== null && preg_match('#<release>([^<]+)</release>#', $existing, $r) && $r[1] === $version
	&& preg_match('#<date>(\d{4}-\d\d-\d\d)</date>#', $existing, $d)) {
	$date = $d[1];
}
$wanted = render($version, $date, $entries);
$problems = array_merge(source_list_problems($files), composer_problems());

if (!$check) {
	if ($existing !== $wanted) {
		file_put_contents(PACKAGE_XML, $wanted);
	}
	printf("package.xml: redlock %s, %d files\n", $version, count($entries));
	foreach ($problems as $p) {
		fwrite(STDERR, "warning: $p\n");
	}
	exit(0);
}

if ($existing === null) {
	$problems[] = 'package.xml is missing';
} elseif (without_date($existing) !== without_date($wanted)) {
	$listed = listed_entries($existing);
	foreach (array_diff_key($entries, $listed) as $path => $role) {
		$problems[] = "package.xml does not list $path (role $role)";
	}
	foreach (array_diff_key($listed, $entries) as $path => $role) {
		$problems[] = "package.xml lists $path, which is not a tracked shipped file";
	}
	foreach (array_intersect_key($listed, $entries) as $path => $role) {
		if ($role !== $entries[$path]) {
			$problems[] = "package.xml gives $path role $role, expected {$entries[$path]}";
		}
	}
	if (!preg_match('#<release>([^<]+)</release>#', $existing, $r) || $r[1] !== $version) {
		$problems[] = 'package.xml release ' . ($r[1] ?? '(none)') . " differs from PHP_REDLOCK_VERSION $version";
	}
	if (count($problems) === 0) {
		$problems[] = 'package.xml differs from what scripts/package-xml.php generates (hand-edited?)';
	}
}
if ($problems) {
	foreach ($problems as $p) {
		fwrite(STDERR, "package-xml --check: $p\n");
	}
	fwrite(STDERR, "package-xml --check: FAILED; fix the build files if named, then run: php scripts/package-xml.php\n");
	exit(1);
}
printf("package.xml is up to date: redlock %s, %d files\n", $version, count($entries));
