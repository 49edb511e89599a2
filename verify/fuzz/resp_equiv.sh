#!/usr/bin/env bash
# The request encoder (ext/protocol/rl_resp.h) against hiredis' redisFormatCommandArgv, byte for byte
# (deterministic, used by CI): verify/fuzz/resp_equiv.sh [SEED [COUNT]]
set -euo pipefail
cd "$(dirname "$0")/../.."
mkdir -p .run/fuzz
gcc -O1 -g -Wall -Wextra -Iext -o .run/fuzz/resp_equiv verify/fuzz/resp_equiv.c -lhiredis
exec .run/fuzz/resp_equiv "$@"
