#!/usr/bin/env bash
# The stock demo from a fresh Debian 12 machine (run as root the first time: it installs and builds
# through scripts/setup.sh). Starts 3 redis-servers on 127.0.0.1 (ports 7371..7373), runs
# scripts/demo-stock.php twice (8 processes selling a stock of 2000, without and with RedLock),
# prints both outcomes and stops the servers. Exits non-zero if the run with RedLock oversold.
#   scripts/demo.sh [STOCK] [PROCESSES]      REDLOCK_DEMO_PORT=7371 first of the 3 ports
set -euo pipefail
cd "$(dirname "$0")/.."

scripts/setup.sh

run_dir=$PWD/.run/demo-servers
trap 'scripts/redis-servers.sh stop "$run_dir"' EXIT
servers=$(scripts/redis-servers.sh start 3 "${REDLOCK_DEMO_PORT:-7371}" "$run_dir")

export REDLOCK_SO=$PWD/modules/redlock.so
timeout 300 php -d extension="$REDLOCK_SO" scripts/demo-stock.php "$servers" "${1:-2000}" "${2:-8}"
