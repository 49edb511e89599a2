#!/usr/bin/env bash
# Fails on an include that goes up or sideways in ext/'s layers (the order: scripts/layers.txt), and on a
# PHP header included below the folders marked (zend) there, and on a folder's private header (*_private.h)
# included from another folder.
# Usage: bash scripts/check-layers.sh [ext-dir]   (CI: .ci/run, release check)
# Then the house's other structural rule: the one list of checks (verify/README.md) says what .ci/run runs
# (php verify/checks.php).
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
ext="${1:-$root/ext}"
table="$root/scripts/layers.txt"

declare -A level zend
n=0
while read -r line; do
    line="${line%%#*}"
    [ -z "${line// }" ] && continue
    n=$((n + 1))
    for folder in $line; do
        case "$folder" in
            '(zend)') for f in $line; do zend[$f]=1; done ;;
            *) level[$folder]=$n ;;
        esac
    done
done < "$table"

bad=0
# Every include of ext/ (file:line, the folder it names). The API face (from: none) may include any folder
# but another's private header.
while IFS= read -r hit; do
    file="${hit%%:*}"; rest="${hit#*:}"; lineno="${rest%%:*}"; line="${rest#*:}"
    rel="${file#"$ext"/}"
    case "$rel" in */*) from="${rel%%/*}" ;; *) from="" ;; esac
    if [ -n "$from" ] && [ -z "${level[$from]:-}" ]; then
        echo "ext/$rel: folder '$from' is not in scripts/layers.txt"; bad=1; continue
    fi
    if [[ "$line" =~ \#[[:space:]]*include[[:space:]]+[\<\"](php|zend|main/|Zend/|TSRM|ext/) ]]; then
        # plain C below the (zend) lines: no PHP or Zend header
        [ -z "$from" ] || [ -n "${zend[$from]:-}" ] && continue
        echo "ext/$rel:$lineno: $from/ includes a PHP header: only the folders marked (zend) in scripts/layers.txt use the engine"
        bad=1; continue
    fi
    # A private header (*_private.h) is named by its folder ("net/rl_conn_private.h"), never by a relative
    # path or a bare name, so that the rule below sees which folder it belongs to.
    if [[ "$line" =~ \#[[:space:]]*include[[:space:]]+\"([^\"]*)_private\.h\" ]] \
        && ! [[ "${BASH_REMATCH[1]}" =~ ^[a-z_]+/[a-z_]+$ ]]; then
        echo "ext/$rel:$lineno: includes a private header by a relative path or bare name: write \"folder/name_private.h\""
        bad=1; continue
    fi
    [[ "$line" =~ \#[[:space:]]*include[[:space:]]+\"([a-z_]+)/([a-z_]+)\.h ]] || continue
    target="${BASH_REMATCH[1]}"
    if [ -z "${level[$target]:-}" ]; then
        echo "ext/$rel:$lineno: includes '$target/', which is not a folder of scripts/layers.txt"; bad=1; continue
    fi
    if [ "$target" != "$from" ] && [[ "${BASH_REMATCH[2]}" == *_private ]]; then
        echo "ext/$rel:$lineno: includes a private header of $target/: only the files of $target/ may"
        bad=1; continue
    fi
    [ -z "$from" ] || [ "$target" = "$from" ] && continue
    if [ "${level[$target]}" -le "${level[$from]}" ]; then
        echo "ext/$rel:$lineno: $from/ includes $target/: a folder includes only itself and the folders below it (scripts/layers.txt)"
        bad=1
    fi
done < <(grep -rnE '^[[:space:]]*#[[:space:]]*include[[:space:]]+[<"]' "$ext" --include='*.c' --include='*.h' || true)

# every folder of ext/ must have its place in the table
for dir in "$ext"/*/; do
    folder="$(basename "$dir")"
    [ -n "${level[$folder]:-}" ] || { echo "ext/$folder/: not in scripts/layers.txt"; bad=1; }
done

# the list of checks against CI
php "$root/verify/checks.php" || bad=1

if [ "$bad" -ne 0 ]; then echo "check-layers: FAILED"; exit 1; fi
echo "check-layers: ok ($(grep -rlE '#include "[a-z_]+/' "$ext" --include='*.c' --include='*.h' | wc -l) files, $n levels)"
