#!/usr/bin/env bash
# Native release (DELEX / DELIFEQ) against the servers that have it: Redis 8.6 (Debian experimental)
# and Valkey 9 (Debian sid), run from a debootstrap root of sid made here, since Debian 12 has neither.
# Then the phpt chapter tests/native/ against them (Debian 12's own redis-server 7.0 as the server
# without). Ends with "N passed, N failed". As root; needs network access to the Debian archive.
#   REDLOCK_NATIVE_ROOT=.run/native-root   where the root is made (kept, reused on the next run)
#   REDLOCK_NATIVE_PORT=7601                first of the 12 ports (3 Redis 8.6, 3 Valkey 9; then a cluster of
#                                           3 Redis 8.6 masters and one of 3 Valkey 9 masters, for atomic slot
#                                           migration: cluster bus ports +10000)
set -euo pipefail
cd "$(dirname "$0")/.."
root=${REDLOCK_NATIVE_ROOT:-$PWD/.run/native-root}
port=${REDLOCK_NATIVE_PORT:-7601}
started=$(date +%s)

# The archive this machine's apt uses (never written down here).
mirror=$(bash scripts/debian-mirror.sh)

if [ ! -x "$root/usr/bin/redis-server" ] || [ ! -x "$root/usr/bin/valkey-server" ]; then
  command -v debootstrap >/dev/null || DEBIAN_FRONTEND=noninteractive apt-get install -y -q debootstrap >/dev/null
  if [ ! -x "$root/usr/bin/apt-get" ]; then
    rm -rf "$root"
    debootstrap --variant=minbase sid "$root" "$mirror" > "$root.log" 2>&1 || { tail -20 "$root.log"; exit 1; }
  fi
  echo "deb $mirror experimental main" > "$root/etc/apt/sources.list.d/experimental.list"
  printf '#!/bin/sh\nexit 101\n' > "$root/usr/sbin/policy-rc.d"   # no services start in the root
  chmod +x "$root/usr/sbin/policy-rc.d"
  cp /etc/resolv.conf "$root/etc/resolv.conf" 2>/dev/null || true
  mount -t proc proc "$root/proc"
  trap 'umount "$root/proc" 2>/dev/null || true' EXIT
  # Snapshot archives serve Release files past their Valid-Until: accept them.
  apt_opts="-o Acquire::Check-Valid-Until=false -q -y --no-install-recommends"
  chroot "$root" sh -c "apt-get $apt_opts update && DEBIAN_FRONTEND=noninteractive apt-get $apt_opts install valkey-server \
    && DEBIAN_FRONTEND=noninteractive apt-get $apt_opts install -t experimental redis-server" > "$root.apt.log" 2>&1 \
    || { tail -20 "$root.apt.log"; exit 1; }
  umount "$root/proc" 2>/dev/null || true
  trap - EXIT
fi
echo "native root: $(chroot "$root" redis-server --version | cut -d' ' -f1-3), $(chroot "$root" valkey-server --version | cut -d' ' -f1-3) ($(( $(date +%s) - started )) s)"

run=$PWD/.run/native-servers
mkdir -p "$run"
pids=()
stop() {
  for pid in "${pids[@]}"; do kill -9 "$pid" 2>/dev/null || true; done
}
trap stop EXIT
# $1 binary, $2 port: a server in the root, in the foreground of a background job (its pid is ours).
serve() {
  chroot "$root" "$1" --port "$2" --bind 127.0.0.1 --save '' --appendonly no --logfile "" > "$run/$1-$2.log" 2>&1 &
  pids+=($!)
}
redis_ports=() valkey_ports=()
for i in 0 1 2; do
  serve redis-server $((port + i)); redis_ports+=("127.0.0.1:$((port + i))")
  serve valkey-server $((port + 3 + i)); valkey_ports+=("127.0.0.1:$((port + 3 + i))")
done
# $1 binary, $2 port: a cluster node in the root (its nodes file in the root's /tmp, removed first).
serve_node() {
  rm -f "$root/tmp/redlock-native-nodes-$2.conf"
  chroot "$root" "$1" --port "$2" --bind 127.0.0.1 --save '' --appendonly no --logfile "" --cluster-enabled yes \
    --cluster-config-file "/tmp/redlock-native-nodes-$2.conf" --cluster-node-timeout 2000 > "$run/$1-$2.log" 2>&1 &
  pids+=($!)
}
for i in 0 1 2; do
  serve_node redis-server $((port + 6 + i))
  serve_node valkey-server $((port + 9 + i))
done
for p in $(seq "$port" $((port + 11))); do
  for _ in $(seq 50); do redis-cli -p "$p" PING >/dev/null 2>&1 && break; sleep 0.1; done
done
# Two clusters of 3 masters (no replicas), each made by its own server's cli, every node agreeing (bounded).
clusters=()
for kind in redis:6 valkey:9; do
  cli=${kind%%:*}-cli first=$((port + ${kind##*:}))
  nodes="127.0.0.1:$first 127.0.0.1:$((first + 1)) 127.0.0.1:$((first + 2))"
  # shellcheck disable=SC2086
  chroot "$root" "$cli" --cluster create $nodes --cluster-yes > "$run/$cli-create.log" 2>&1 \
    || { tail -5 "$run/$cli-create.log"; exit 1; }
  for _ in $(seq 300); do
    ok=1
    for p in $first $((first + 1)) $((first + 2)); do
      redis-cli -p "$p" CLUSTER INFO 2>/dev/null | grep -q '^cluster_state:ok' || ok=0
    done
    [ "$ok" = 1 ] && break
    sleep 0.1
  done
  [ "$ok" = 1 ] || { echo "the $cli cluster on $first.. did not settle in 30 s" >&2; exit 1; }
  clusters+=("${nodes// /,}")
done

export REDLOCK_NATIVE_REDIS=$(IFS=,; echo "${redis_ports[*]}") REDLOCK_NATIVE_VALKEY=$(IFS=,; echo "${valkey_ports[*]}")
export REDLOCK_NATIVE_REDIS_CLUSTER=${clusters[0]} REDLOCK_NATIVE_VALKEY_CLUSTER=${clusters[1]}
# The shared helpers want 5 servers of their own: the Redis 8.6 and two Valkey ones do.
export REDLOCK_TEST_SERVERS="$REDLOCK_NATIVE_REDIS,127.0.0.1:$((port + 3)),127.0.0.1:$((port + 4))"
export NO_INTERACTION=1 REPORT_EXIT_STATUS=1
log=$PWD/.run/native-tests.log
run_tests=$(ls /usr/lib/php/*/build/run-tests.php | head -n 1)
run_tests=$(bash scripts/no-retry.sh "$run_tests") # never retried: scripts/no-retry.sh
php "$run_tests" -q --show-diff -d extension="$PWD/modules/redlock.so" -P tests/native/ 2>&1 | tee "$log"
status=${PIPESTATUS[0]}
bash scripts/failed-diffs.sh "$log"
passed=$(sed -n 's/^Tests passed *: *\([0-9]*\).*/\1/p' "$log" | tail -n 1)
failed=$(sed -n 's/^Tests failed *: *\([0-9]*\).*/\1/p' "$log" | tail -n 1)
skipped=$(sed -n 's/^Tests skipped *: *\([0-9]*\).*/\1/p' "$log" | tail -n 1)
failed=$(( ${failed:-0} + ${skipped:-0} ))
# Every test of tests/native/ ran (scripts/tests-ran.sh names any that did not).
bash scripts/tests-ran.sh tests/native "$log" >/dev/null || failed=$((failed + 1))
echo "native release: ${passed:-0} passed, $failed failed ($(( $(date +%s) - started )) s)"
[ "$status" -eq 0 ] && [ "$failed" -eq 0 ] && [ "${passed:-0}" -gt 0 ]
