<?php
/* The tests against a laravel/framework source tree instead of Debian's package, for Laravel versions
 * no Debian suite ships (11-13):
 *   LARAVEL_SRC=/path/to/laravel/framework LARAVEL_AUTOLOAD=$PWD/integrations/laravel/tests/source-autoload.php \
 *     bash integrations/laravel/run-tests.sh --exclude-group application
 * Illuminate is loaded as that tree's composer.json says; its dependencies are Debian 12's packages
 * (Carbon 2, Symfony 5.4 components, ...), and PHP 8.3-8.5 functions Laravel 12-13 take from Symfony's
 * polyfills are defined below. Foundation (the application, artisan) needs Symfony 6-7: not loaded. */
$root = getenv('LARAVEL_SRC');
foreach (['Carbon/autoload.php', 'Doctrine/Inflector/autoload.php', 'voku/helper/autoload.php', 'voku/portable-ascii/autoload.php', 'Psr/Container/autoload.php', 'Psr/SimpleCache/autoload.php', 'Psr/Log/autoload.php', 'Psr/EventDispatcher/autoload.php', 'Symfony/Component/Console/autoload.php', 'Laravel/SerializableClosure/autoload.php', 'Cron/autoload.php', 'Symfony/Component/Process/autoload.php', 'Symfony/Component/Finder/autoload.php'] as $f) {
    if (is_file("/usr/share/php/$f")) require_once "/usr/share/php/$f";
}
$composer = json_decode(file_get_contents("$root/composer.json"), true)['autoload'];
$map = $composer['psr-4'];
uksort($map, fn ($a, $b) => strlen($b) <=> strlen($a));
spl_autoload_register(function ($class) use ($root, $map) {
    foreach ($map as $prefix => $dirs) {
        if (str_starts_with($class, $prefix)) {
            foreach ((array) $dirs as $dir) {
                $file = "$root/$dir" . str_replace('\\', '/', substr($class, strlen($prefix))) . '.php';
                if (is_file($file)) { require $file; return; }
            }
        }
    }
});
foreach ($composer['files'] as $f) {
    if (!str_contains($f, 'Foundation')) require_once "$root/$f";
}
// what symfony/polyfill-php83/84/85 give Laravel 12 and 13 on PHP 8.2
if (!function_exists('array_first')) { function array_first(array $a) { return $a === [] ? null : $a[array_key_first($a)]; } }
if (!function_exists('array_last')) { function array_last(array $a) { return $a === [] ? null : $a[array_key_last($a)]; } }
if (!function_exists('array_find')) { function array_find(array $a, callable $f) { foreach ($a as $k => $v) { if ($f($v, $k)) return $v; } return null; } }
if (!function_exists('array_find_key')) { function array_find_key(array $a, callable $f) { foreach ($a as $k => $v) { if ($f($v, $k)) return $k; } return null; } }
if (!function_exists('array_any')) { function array_any(array $a, callable $f): bool { foreach ($a as $k => $v) { if ($f($v, $k)) return true; } return false; } }
if (!function_exists('array_all')) { function array_all(array $a, callable $f): bool { foreach ($a as $k => $v) { if (!$f($v, $k)) return false; } return true; } }
if (!function_exists('json_validate')) { function json_validate(string $j): bool { json_decode($j); return json_last_error() === JSON_ERROR_NONE; } }
if (!function_exists('now')) { function now($tz = null) { return \Illuminate\Support\Carbon::now($tz); } } // Foundation's helper
