#!/usr/bin/env bash
# Starts or stops a local Redis Cluster for tests/cluster/: 6 redis-servers in cluster mode on
# 127.0.0.1 (ports BASE..BASE+5; cluster bus BASE+10000..), 3 masters and 3 replicas, every slot
# assigned (redis-cli --cluster create). Bounded: a cluster not ready in 30 s fails.
#   scripts/redis-cluster.sh start BASE_PORT RUN_DIR   prints the REDLOCK_TEST_CLUSTER value
#   scripts/redis-cluster.sh stop RUN_DIR
set -euo pipefail

action=${1:?usage: redis-cluster.sh start BASE_PORT RUN_DIR | stop RUN_DIR}

source "$(dirname "${BASH_SOURCE[0]}")/redis-lib.sh"

stop_all() {
  local dir=$1
  stop_pidfiles "$dir"/node-*.pid
  rm -f "$dir"/nodes-*.conf "$dir"/dump-*.rdb # a replica keeps the RDB of its full sync: loaded at the next start, "Node is not empty"
}

case "$action" in
  start)
    base=${2:?base port}; dir=${3:?run dir}
    mkdir -p "$dir"
    stop_all "$dir"
    nodes=""
    for i in 0 1 2 3 4 5; do
      port=$((base + i))
      redis-server --port "$port" --bind 127.0.0.1 --save '' --appendonly no \
        --cluster-enabled yes --cluster-config-file "$dir/nodes-$port.conf" --cluster-node-timeout 2000 \
        --daemonize yes --pidfile "$dir/node-$port.pid" --logfile "$dir/node-$port.log" \
        --dir "$dir" --dbfilename "dump-$port.rdb"
      nodes="$nodes 127.0.0.1:$port"
    done
    for i in 0 1 2 3 4 5; do
      await_ping $((base + i))
    done
    # shellcheck disable=SC2086
    redis-cli --cluster create $nodes --cluster-replicas 1 --cluster-yes >"$dir/create.log" 2>&1 \
      || { cat "$dir/create.log" >&2; exit 1; }
    # every node agrees the cluster is ok, and sees 3 masters each with its replica
    for _ in $(seq 300); do
      ok=1
      for i in 0 1 2 3 4 5; do
        redis-cli -h 127.0.0.1 -p $((base + i)) cluster info 2>/dev/null | grep -q '^cluster_state:ok' || ok=0
        [ "$(redis-cli -h 127.0.0.1 -p $((base + i)) cluster nodes 2>/dev/null | grep -c 'slave')" = 3 ] || ok=0
      done
      [ "$ok" = 1 ] && break
      sleep 0.1
    done
    [ "$ok" = 1 ] || { echo "the cluster on $base.. did not settle in 30 s" >&2; exit 1; }
    echo "127.0.0.1:$base,127.0.0.1:$((base + 1)),127.0.0.1:$((base + 2))"
    ;;
  stop)
    stop_all "${2:?run dir}"
    ;;
  *)
    echo "unknown action $action" >&2; exit 2 ;;
esac
