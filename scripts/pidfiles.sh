# Sourced by scripts/redis-servers.sh and scripts/redis-cluster.sh: stops the servers whose pid files are
# given (a stopped one is woken first, then SIGTERM, 5 s to exit, then SIGKILL) and removes the files.
#   stop_pidfiles FILE...   (a glob that matched nothing is passed over)
stop_pidfiles() {
  local pidfile pid
  for pidfile in "$@"; do
    [ -f "$pidfile" ] || continue
    pid=$(cat "$pidfile")
    kill -CONT "$pid" 2>/dev/null || true
    kill "$pid" 2>/dev/null || true
    for _ in $(seq 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
    kill -9 "$pid" 2>/dev/null || true
    rm -f "$pidfile"
  done
}
