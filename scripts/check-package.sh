#!/usr/bin/env bash
# Release check: package.xml is up to date, `pecl package` builds the tarball, and that tarball alone
# (extracted outside the checkout) builds with phpize/configure/make and loads with the right version.
# A file the build needs but package.xml does not list makes this fail. Temp dirs are removed on exit
# (set KEEP=1 to keep them). Needs php-dev, php-pear (installed here when missing and run as root),
# libhiredis-dev, pkg-config, make, gcc: scripts/setup.sh installs the rest.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD

step() { printf '== %s\n' "$*"; }
die() { printf 'check-package: %s\n' "$*" >&2; exit 1; }

if ! command -v pecl >/dev/null 2>&1; then
	[ "$(id -u)" -eq 0 ] || die "pecl is missing: apt-get install php-pear (as root)"
	step "installing php-pear"
	DEBIAN_FRONTEND=noninteractive apt-get install -y -q php-pear >/dev/null \
		|| { apt-get update -q >/dev/null && DEBIAN_FRONTEND=noninteractive apt-get install -y -q php-pear >/dev/null; }
fi

version=$(sed -n 's/^#define[[:space:]]*PHP_REDLOCK_VERSION[[:space:]]*"\([^"]*\)".*/\1/p' ext/php_redlock.h)
[ -n "$version" ] || die "no PHP_REDLOCK_VERSION in ext/php_redlock.h"

work=$(mktemp -d "${TMPDIR:-/tmp}/redlock-package.XXXXXX")
cleanup() {
	if [ "${KEEP:-0}" = 1 ]; then
		echo "kept $work"
	else
		rm -rf "$work"
	fi
}
trap cleanup EXIT

step "package.xml matches git ls-files and PHP_REDLOCK_VERSION $version"
php scripts/package-xml.php --check

step "pecl package"
# Run from the temp dir so the tarball lands there, never in the checkout.
(cd "$work" && pecl package "$root/package.xml") >"$work/pecl-package.log" 2>&1 \
	|| { cat "$work/pecl-package.log" >&2; die "pecl package failed"; }
# The release date is the day package.xml was written; pecl warns when a later run is not on that
# day. That says nothing about the package, so it is the one warning let through.
if grep -i 'warning' "$work/pecl-package.log" | grep -qv 'Release Date "[0-9-]*" is not today'; then
	cat "$work/pecl-package.log" >&2
	die "pecl package warned"
fi
tarball="$work/redlock-$version.tgz"
[ -f "$tarball" ] || die "pecl package did not write redlock-$version.tgz"
echo "$(basename "$tarball"): $(tar tzf "$tarball" | grep -c "^redlock-$version/") files"

step "build the tarball out of tree (phpize, configure, make)"
mkdir "$work/src"
tar xzf "$tarball" -C "$work/src"
build="$work/src/redlock-$version"
(
	cd "$build"
	phpize >"$work/phpize.log" 2>&1 || { cat "$work/phpize.log" >&2; exit 1; }
	./configure >"$work/configure.log" 2>&1 || { tail -20 "$work/configure.log" >&2; exit 1; }
	make -j"$(nproc)" >"$work/make.log" 2>&1 || { grep -E 'error|Error' "$work/make.log" | head -20 >&2; exit 1; }
) || die "the tarball does not build on its own (a needed file missing from package.xml?)"
[ -f "$build/modules/redlock.so" ] || die "no modules/redlock.so after make"

step "load the built extension"
loaded=$(php -n -d extension="$build/modules/redlock.so" \
	-r 'echo class_exists("RedLock", false) ? "" : "no RedLock class ", PHP_REDLOCK_VERSION, " ", phpversion("redlock");')
[ "$loaded" = "$version $version" ] || die "loaded extension reports \"$loaded\", expected \"$version $version\""
echo "redlock.so loads: PHP_REDLOCK_VERSION $version"

echo "check-package: OK (redlock-$version.tgz)"
