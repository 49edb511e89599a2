#!/usr/bin/env bash
# Starts or stops the local redis-servers the tests and the demo use, all bound to 127.0.0.1.
#   scripts/redis-servers.sh start COUNT BASE_PORT RUN_DIR   prints the REDLOCK_TEST_SERVERS value
#   scripts/redis-servers.sh stop RUN_DIR
set -euo pipefail

action=${1:?usage: redis-servers.sh start COUNT BASE_PORT RUN_DIR | stop RUN_DIR}

source "$(dirname "${BASH_SOURCE[0]}")/redis-lib.sh"

stop_all() {
  local dir=$1
  stop_pidfiles "$dir"/redis-*.pid
}

case "$action" in
  start)
    count=${2:?count}; base=${3:?base port}; dir=${4:?run dir}
    mkdir -p "$dir"
    stop_all "$dir"
    list=""
    for i in $(seq 0 $((count - 1))); do
      port=$((base + i))
      redis-server --port "$port" --bind 127.0.0.1 --save '' --appendonly no \
        --daemonize yes --pidfile "$dir/redis-$port.pid" --logfile "$dir/redis-$port.log" \
        --dir "$dir" --dbfilename "dump-$port.rdb"
      list="${list:+$list,}127.0.0.1:$port"
    done
    for i in $(seq 0 $((count - 1))); do
      await_ping $((base + i))
    done
    echo "$list"
    ;;
  stop)
    stop_all "${2:?run dir}"
    ;;
  *)
    echo "unknown action $action" >&2; exit 2 ;;
esac
