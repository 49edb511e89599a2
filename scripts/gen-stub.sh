#!/usr/bin/env bash
# Regenerates ext/*_arginfo.h from ext/*.stub.php without network access: php-src's gen_stub.php
# wants to download PHP-Parser, so it runs from a scratch directory where PHP-Parser-4.15.1/lib
# points at Debian's php-parser (installed here when missing). Commit the stub and its arginfo together.
set -euo pipefail
cd "$(dirname "$0")/.."
gen=$(ls /usr/lib/php/*/build/gen_stub.php 2>/dev/null | head -n 1)
[ -n "$gen" ] || { echo "gen_stub.php not found: install php-dev" >&2; exit 1; }
[ -d /usr/share/php/PhpParser ] || DEBIAN_FRONTEND=noninteractive apt-get install -y -q php-parser >/dev/null
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
cp "$gen" "$scratch/gen_stub.php"
mkdir -p "$scratch/PHP-Parser-4.15.1"
ln -s /usr/share/php "$scratch/PHP-Parser-4.15.1/lib"
for stub in ext/*.stub.php; do
  cp "$stub" "$scratch/"
  (cd "$scratch" && php gen_stub.php -f "$(basename "$stub")")
  cp "$scratch/$(basename "${stub%.stub.php}")_arginfo.h" ext/
done
