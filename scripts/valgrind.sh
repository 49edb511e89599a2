#!/usr/bin/env bash
# The whole phpt suite under valgrind (memcheck through run-tests.php -m): any invalid access or
# leak in a test marks it LEAK/FAIL. Ends with "N passed, N failed" like scripts/test.sh.
#   REDLOCK_TEST_PORT=7301 scripts/valgrind.sh
# USE_ZEND_ALLOC=0: Zend allocations go through malloc so memcheck sees them. pcre.jit=0: JIT code
# trips "conditional jump on uninitialised value" noise. run-tests traces children, and the tests
# spawn redis-servers, redis-sentinels, redis-cli and sh: those run natively, or a 2 s DEBUG SLEEP test takes minutes.
set -euo pipefail
cd "$(dirname "$0")/.."
export USE_ZEND_ALLOC=0
export VALGRIND_OPTS="${VALGRIND_OPTS:-} --trace-children-skip=*/sh,*/bash,*/dash,*/redis-server,*/redis-sentinel,*/redis-cli,*/sleep,*/kill"
export REDLOCK_TEST_ARGS="-m -d pcre.jit=0 ${REDLOCK_TEST_ARGS:-}"
exec bash scripts/test.sh
