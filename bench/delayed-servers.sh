# Sourced by bench/run.sh and bench/before_after.sh: COUNT redis-servers on 127.0.0.1 from REDIS_BASE (run
# dir OUT/servers), each behind one delay proxy (bench/delay_proxy.c, built as BIN/delay_proxy) from
# PROXY_BASE, ONE_WAY_US each way; all of them stopped on exit.
#   start_delayed_servers COUNT REDIS_BASE PROXY_BASE ONE_WAY_US OUT BIN
delayed_proxy_pid="" delayed_out=""
stop_delayed_servers() {
  [ -n "$delayed_proxy_pid" ] && kill "$delayed_proxy_pid" 2>/dev/null || true
  scripts/redis-servers.sh stop "$delayed_out/servers" || true
}
start_delayed_servers() {
  local count=$1 redis_base=$2 proxy_base=$3 one_way_us=$4 bin=$6 i mappings=()
  delayed_out=$5
  trap stop_delayed_servers EXIT
  scripts/redis-servers.sh start "$count" "$redis_base" "$delayed_out/servers" >/dev/null
  for i in $(seq 0 $((count - 1))); do mappings+=("$((proxy_base + i)):$((redis_base + i))"); done
  "$bin/delay_proxy" -d "$one_way_us" -t 1800 "${mappings[@]}" &
  delayed_proxy_pid=$!
  for _ in $(seq 50); do redis-cli -p "$proxy_base" ping >/dev/null 2>&1 && break; sleep 0.1; done
}
