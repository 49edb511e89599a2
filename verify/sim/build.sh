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
# Objects are kept by the source file, every header of ext/ and verify/sim, and the flags: a mutant built
# from a copy of ext/ with one .c file patched recompiles only that file (a patched header, all).
cache=${SIM_OBJ_CACHE:-.run/sim/objects}
mkdir -p "$cache"
headers=$({ echo "${CC:-cc} $flags"; cat verify/sim/*.h verify/common/*.h; (cd "$src" && find ext -name '*.h' | LC_ALL=C sort | xargs cat); } | sha1sum | cut -c1-40)
# kept: compile (or copy) one source; $1 its sum, $2 the file, then the compiler's other arguments
kept() {
  local sum=$1 f=$2 obj="$objdir/${2//[\/.]/_}.o"
  shift 2
  if [ -f "$cache/$headers-$sum.o" ]; then
    cp "$cache/$headers-$sum.o" "$obj"
  else
    ${CC:-cc} $flags "$@" -c "$f" -o "$obj"
    cp "$obj" "$cache/$headers-$sum.o.$$" && mv "$cache/$headers-$sum.o.$$" "$cache/$headers-$sum.o"
  fi
}
while read -r sum f; do
  kept "$sum" "$src/$f" -include verify/sim/seam.h -I"$src/ext"
done < <(cd "$src" && sha1sum $ext_sources)
while read -r sum f; do
  kept "$sum" "$f" -I"$src/ext" # kernel.c, main.c: their headers are ext/'s and verify/sim's
done < <(sha1sum verify/sim/kernel.c verify/sim/main.c)
${CC:-cc} $flags -o "$out" "$objdir"/*.o -lhiredis -lssl -lcrypto -lpthread -lm
