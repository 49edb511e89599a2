#!/usr/bin/env bash
# Callgrind instructions per drop-in lock+unlock cycle of bench/cycle.php (one RedLock reused):
# (instructions of CYCLES cycles - instructions of 0 cycles) / CYCLES.
#   bench/cycle_callgrind.sh MODULE SERVERS [CYCLES=4000] [OUT_PREFIX]
# With OUT_PREFIX the two profiles are kept (OUT_PREFIX.0.out, OUT_PREFIX.CYCLES.out) for
# callgrind_annotate; ZEND_DONT_UNLOAD_MODULES=1 keeps the module loaded at exit, so that its
# source lines are known (unloaded, every line of it reads as line 0). The count varies by a few
# hundred from run to run: how many servers' replies come after the quorum was decided (each one
# is then taken in at the start of the next call) depends on the machine's timing.
set -euo pipefail
cd "$(dirname "$0")/.."
so=${1:?usage: MODULE SERVERS [CYCLES] [OUT_PREFIX]} servers=${2:?servers} cycles=${3:-4000} prefix=${4:-}
count() {
  local file=/dev/null
  [ -n "$prefix" ] && file=$prefix.$1.out
  ZEND_DONT_UNLOAD_MODULES=1 valgrind --tool=callgrind --callgrind-out-file="$file" \
    php -n -d extension="$so" bench/cycle.php ext reused "$servers" 600 "$1" 2>&1 >/dev/null \
    | sed -n 's/.*Collected : *\([0-9]*\).*/\1/p'
}
zero=$(count 0)
full=$(count "$cycles")
echo "$so: $(( (full - zero) / cycles )) instructions per cycle ($cycles cycles: $full, 0 cycles: $zero)"
