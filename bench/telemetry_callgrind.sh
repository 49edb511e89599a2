#!/usr/bin/env bash
# Callgrind instructions per drop-in cycle (new RedLock + lock() + unlock(), 5 servers), for a module
# and mode: (instructions of CYCLES cycles - instructions of 0 cycles) / CYCLES.
#   bench/telemetry_callgrind.sh MODULE SERVERS [CYCLES=2000] [none|observer]
set -euo pipefail
cd "$(dirname "$0")/.."
so=${1:?usage: MODULE SERVERS [CYCLES] [none|observer]} servers=${2:?servers} cycles=${3:-2000} mode=${4:-none}
count() {
  valgrind --tool=callgrind --callgrind-out-file=/dev/null php -n -d extension="$so" bench/telemetry_cycle.php \
    "$servers" "$1" "$mode" 2>&1 >/dev/null | sed -n 's/.*Collected : *\([0-9]*\).*/\1/p'
}
zero=$(count 0)
full=$(count "$cycles")
echo "$so $mode: $(( (full - zero) / cycles )) instructions per cycle ($cycles cycles: $full, 0 cycles: $zero)"
