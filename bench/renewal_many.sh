#!/usr/bin/env bash
# autoExtend with many leases on one object at a chosen RTT (issue 32 #7): the servers given behind
# bench/delay_proxy.c, then bench/renewal_many.php. Prints its line per round.
#   bash bench/renewal_many.sh SERVERS MODULE [N] [TTL_MS] [HOLD_S] [RTT_US] [ROUNDS] [LISTEN_BASE]
# SERVERS: 127.0.0.1:P,... (running redis-servers); LISTEN_BASE: first port the proxy listens on.
set -euo pipefail
cd "$(dirname "$0")/.."
servers=$1 module=$2 n=${3:-10000} ttl=${4:-1000} hold=${5:-10} rtt_us=${6:-1000} rounds=${7:-3}
listen=${8:-8260}
out=.run/bench
mkdir -p "$out"
gcc -O2 -Wall -o "$out/delay_proxy" bench/delay_proxy.c
mappings=() proxied=()
IFS=, read -ra list <<< "$servers"
for hp in "${list[@]}"; do
    mappings+=("$listen:${hp##*:}")
    proxied+=("127.0.0.1:$listen")
    listen=$((listen + 1))
done
"$out/delay_proxy" -d $((rtt_us / 2)) -t 1800 "${mappings[@]}" &
proxy=$!
trap 'kill $proxy 2>/dev/null || true' EXIT
sleep 0.3
joined=$(IFS=,; echo "${proxied[*]}")
for ((i = 0; i < rounds; i++)); do
    php -d extension="$module" -d memory_limit=1G bench/renewal_many.php "$joined" "$n" "$ttl" "$hold"
done
