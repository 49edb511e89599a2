# Sourced by scripts/redis-servers.sh and scripts/redis-cluster.sh: what both do to their redis-servers.

# Waits (5 s at most) for the redis-server on 127.0.0.1:PORT to answer PING; exits 1, saying so, if it does not.
#   await_ping PORT
await_ping() {
  local port=$1
  for _ in $(seq 100); do
    redis-cli -h 127.0.0.1 -p "$port" ping >/dev/null 2>&1 && return 0
    sleep 0.05
  done
  redis-cli -h 127.0.0.1 -p "$port" ping >/dev/null || { echo "redis-server on $port did not start" >&2; exit 1; }
}

# Stops the servers whose pid files are given (a stopped one is woken first, then SIGTERM, 5 s to exit, then
# SIGKILL) and removes the files.
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
