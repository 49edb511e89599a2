#!/usr/bin/env bash
# Fails on an include that goes up or sideways in ext/'s layers (the order: scripts/layers.txt).
# Usage: bash scripts/check-layers.sh [ext-dir]   (CI: .ci/run, release check)
# Then the house's other structural rule: the one list of checks (verify/README.md) says what .ci/run runs
# (php verify/checks.php).
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
ext="${1:-$root/ext}"
table="$root/scripts/layers.txt"

declare -A level
n=0
while read -r line; do
    line="${line%%#*}"
    [ -z "${line// }" ] && continue
    n=$((n + 1))
    for folder in $line; do level[$folder]=$n; done
done < "$table"

bad=0
while IFS= read -r hit; do
    file="${hit%%:*}"; rest="${hit#*:}"; lineno="${rest%%:*}"
    target="$(sed -E 's/.*#include "([a-z_]+)\/.*/\1/' <<< "$rest")"
    rel="${file#"$ext"/}"
    case "$rel" in */*) from="${rel%%/*}" ;; *) continue ;; esac   # the glue may include anything below it
    if [ -z "${level[$from]:-}" ]; then
        echo "ext/$rel: folder '$from' is not in scripts/layers.txt"; bad=1; continue
    fi
    if [ -z "${level[$target]:-}" ]; then
        echo "ext/$rel:$lineno: includes '$target/', which is not a folder of scripts/layers.txt"; bad=1; continue
    fi
    [ "$target" = "$from" ] && continue
    if [ "${level[$target]}" -le "${level[$from]}" ]; then
        echo "ext/$rel:$lineno: $from/ includes $target/: a folder includes only itself and the folders below it (scripts/layers.txt)"
        bad=1
    fi
done < <(grep -rnE '^[[:space:]]*#[[:space:]]*include[[:space:]]+"[a-z_]+/' "$ext" --include='*.c' --include='*.h' || true)

# every folder of ext/ must have its place in the table
for dir in "$ext"/*/; do
    folder="$(basename "$dir")"
    [ -n "${level[$folder]:-}" ] || { echo "ext/$folder/: not in scripts/layers.txt"; bad=1; }
done

# the list of checks against CI
php "$root/verify/checks.php" || bad=1

if [ "$bad" -ne 0 ]; then echo "check-layers: FAILED"; exit 1; fi
echo "check-layers: ok ($(grep -rlE '#include "[a-z_]+/' "$ext" --include='*.c' --include='*.h' | wc -l) files, $n levels)"
