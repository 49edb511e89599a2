<?php
/*
 * Lists the functions of ext/ by length, longest first, and counts those over 80 and over 50 lines
 * (the limits of CONTRIBUTING.md, "Functions").
 *
 * Usage: php scripts/function-lengths.php [--over N] [dir]
 *   prints "lines  file:line  name" for every function longer than N body lines (default 50), then the counts.
 *
 * How it counts: every .c file below dir (default ext/, generated *_arginfo.h and headers are not read).
 * Comments, string and character literals and preprocessor lines are blanked first (line breaks kept),
 * then braces are matched. A "{" at depth 0 whose text since the last ";", "}" or "#" line at depth 0 ends
 * in ")" (a parameter list, so not a struct, enum or "= {" initializer) opens a function; its length is
 * the number of lines strictly between the line of that "{" and the line of its matching "}" (the body,
 * blank and comment lines included, the braces' own lines not). The name is the identifier before the
 * header's first "(" (for a macro header such as PHP_METHOD(RedLock, lock) the whole macro call).
 */

$over = 50;
$dir = null;
for ($i = 1; $i < $argc; $i++) {
    if ($argv[$i] === '--over' && isset($argv[$i + 1])) {
        $over = (int) $argv[++$i];
    } else {
        $dir = $argv[$i];
    }
}
$root = dirname(__DIR__);
$dir = $dir ?? $root . '/ext';

/* Blanks comments, literals and preprocessor lines, keeping every "\n" so line numbers hold. */
function blank_noise(string $src): string
{
    $out = '';
    $n = strlen($src);
    $lineStart = true;
    for ($i = 0; $i < $n; $i++) {
        $c = $src[$i];
        if ($lineStart && $c === '#') {
            /* A preprocessor line, with its continuation lines. */
            while ($i < $n && $src[$i] !== "\n") {
                if ($src[$i] === '\\' && $i + 1 < $n && $src[$i + 1] === "\n") {
                    $out .= "\n";
                    $i += 2;
                    continue;
                }
                $i++;
            }
            $out .= "#\n"; /* "#" marks the line for the header reset below */
            $lineStart = true;
            continue;
        }
        if ($c === '/' && $i + 1 < $n && $src[$i + 1] === '*') {
            $end = strpos($src, '*/', $i + 2);
            $end = $end === false ? $n : $end + 2;
            $out .= str_repeat("\n", substr_count($src, "\n", $i, $end - $i));
            $i = $end - 1;
            continue;
        }
        if ($c === '/' && $i + 1 < $n && $src[$i + 1] === '/') {
            while ($i + 1 < $n && $src[$i + 1] !== "\n") {
                $i++;
            }
            continue;
        }
        if ($c === '"' || $c === "'") {
            for ($i++; $i < $n && $src[$i] !== $c; $i++) {
                if ($src[$i] === '\\') {
                    $i++;
                }
            }
            $out .= $c . $c;
            $lineStart = false;
            continue;
        }
        $out .= $c;
        if ($c === "\n") {
            $lineStart = true;
        } elseif ($c !== ' ' && $c !== "\t") {
            $lineStart = false;
        }
    }
    return $out;
}

/* @return list<array{int, string, int, string}> body lines, file, line of the header, name */
function functions_of(string $file): array
{
    $text = blank_noise(file_get_contents($file));
    $found = [];
    $depth = 0;
    $header = '';
    $line = 1;
    $open = 0;
    $headerLine = 0;
    $name = '';
    $n = strlen($text);
    for ($i = 0; $i < $n; $i++) {
        $c = $text[$i];
        if ($c === "\n") {
            $line++;
        }
        if ($depth === 0) {
            if ($c === '{') {
                if (preg_match('/\)\s*$/', $header)) {
                    $open = $line;
                    $name = name_of($header);
                    $headerLine = header_line($header, $line);
                } else {
                    $open = 0;
                }
                $depth = 1;
                $header = '';
                continue;
            }
            if ($c === ';' || $c === '}' || $c === '#') {
                $header = '';
                continue;
            }
            $header .= $c;
            continue;
        }
        if ($c === '{') {
            $depth++;
        } elseif ($c === '}') {
            $depth--;
            if ($depth === 0 && $open > 0) {
                $found[] = [$line - $open - 1, $file, $headerLine, $name];
            }
        }
    }
    return $found;
}

/* The line where the header's text starts (the line of "{" less the header's line breaks after its first word). */
function header_line(string $header, int $braceLine): int
{
    $trimmed = ltrim($header);
    return $braceLine - substr_count($trimmed, "\n");
}

function name_of(string $header): string
{
    $header = trim(preg_replace('/\s+/', ' ', $header));
    if (preg_match('/([A-Za-z_][A-Za-z0-9_]*)\s*\(/', $header, $m, PREG_OFFSET_CAPTURE)) {
        $ident = $m[1][0];
        if (preg_match('/^[A-Z_][A-Z0-9_]*$/', $ident) && preg_match('/' . $ident . '\s*\(([^()]*)\)/', $header, $args)) {
            return $ident . '(' . preg_replace('/\s+/', '', $args[1]) . ')';
        }
        return $ident;
    }
    return $header;
}

$files = [];
$it = new RecursiveIteratorIterator(new RecursiveDirectoryIterator($dir, FilesystemIterator::SKIP_DOTS));
foreach ($it as $f) {
    if (substr($f->getFilename(), -2) === '.c') {
        $files[] = $f->getPathname();
    }
}
sort($files);

$all = [];
foreach ($files as $file) {
    foreach (functions_of($file) as $fn) {
        $all[] = $fn;
    }
}
usort($all, fn($a, $b) => $b[0] <=> $a[0] ?: strcmp($a[1], $b[1]) ?: $a[2] <=> $b[2]);

$over80 = 0;
$over50 = 0;
foreach ($all as [$lines, $file, $at, $name]) {
    $over80 += $lines > 80 ? 1 : 0;
    $over50 += $lines > 50 ? 1 : 0;
    if ($lines > $over) {
        $rel = str_starts_with($file, $root . '/') ? substr($file, strlen($root) + 1) : $file;
        printf("%4d  %s:%d  %s\n", $lines, $rel, $at, $name);
    }
}
printf("%d functions in %d files; over 80 lines: %d; over 50 lines: %d\n", count($all), count($files), $over80, $over50);
