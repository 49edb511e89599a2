#!/usr/bin/env bash
# Prints the Debian archive URI this machine's apt already uses (the first non-security "debian"
# URI in /etc/apt/sources.list and sources.list.d, one-line or deb822 format), so that the
# debootstrap roots and deb-src lines use the same mirror without naming a host here.
set -euo pipefail
for f in /etc/apt/sources.list /etc/apt/sources.list.d/*.list /etc/apt/sources.list.d/*.sources; do
  [ -f "$f" ] || continue
  sed -n -e 's/^[[:space:]]*deb[[:space:]]\+\(\[[^]]*\][[:space:]]\+\)\?\([a-z+]*:\/\/[^[:space:]]*\).*/\2/p' \
         -e 's/^[[:space:]]*URIs:[[:space:]]*\([^[:space:]]*\).*/\1/p' "$f"
done | grep -E '/debian/?$' | grep -v -- '-security' | head -n 1 | grep . || {
  echo "no Debian archive URI found in /etc/apt/sources.list*" >&2; exit 1; }
