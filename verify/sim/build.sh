#!/usr/bin/env bash
# Builds the simulation: verify/sim/build.sh OUT [SRC_ROOT] [extra cc flags...]
# SRC_ROOT (default: this tree) is where ext/ is taken from: a mutated copy for the mutation runs.
# SIM_OBJ_CACHE: where objects are kept between builds (default .run/sim/objects).
set -euo pipefail
cd "$(dirname "$0")/../.."
out=$1
src=${2:-.}
shift $(( $# >= 2 ? 2 : 1 ))
ext_sources=$(cd "$src" && ls ext/client/*.c ext/core/*.c ext/net/*.c ext/protocol/*.c ext/services/*.c ext/memory/rl_memory_keyspace.c ext/memory/rl_memory_resp.c ext/memory/rl_memory_store.c)
objdir=$(mktemp -d)
trap 'rm -rf "$objdir"' EXIT
flags="-O1 -g -Wall -U_FORTIFY_SOURCE -D_FORTIFY_SOURCE=0 $*"
# Objects are kept by the source file, every header of ext/ and seam.h, and the flags: a mutant built
# from a copy of ext/ with one .c file patched recompiles only that file (a patched header, all).
cache=${SIM_OBJ_CACHE:-.run/sim/objects}
mkdir -p "$cache"
headers=$({ echo "${CC:-cc} $flags"; cat verify/sim/seam.h; (cd "$src" && find ext -name '*.h' | LC_ALL=C sort | xargs cat); } | sha1sum | cut -c1-40)
for f in $ext_sources; do
  obj="$objdir/$(echo "$f" | tr / _).o"
  key=$({ echo "$headers $f"; cat "$src/$f"; } | sha1sum | cut -c1-40)
  if [ -f "$cache/$key.o" ]; then
    cp "$cache/$key.o" "$obj"
  else
    ${CC:-cc} $flags -include verify/sim/seam.h -I"$src/ext" -c "$src/$f" -o "$obj"
    cp "$obj" "$cache/$key.o.$$" && mv "$cache/$key.o.$$" "$cache/$key.o"
  fi
done
${CC:-cc} $flags -I"$src/ext" -c verify/sim/kernel.c -o "$objdir/kernel.o"
${CC:-cc} $flags -I"$src/ext" -c verify/sim/main.c -o "$objdir/main.o"
${CC:-cc} $flags -o "$out" "$objdir"/*.o -lhiredis -lssl -lcrypto -lpthread -lm
