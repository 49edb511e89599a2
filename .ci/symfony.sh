#!/usr/bin/env bash
# CI step: the Symfony Lock store (integrations/symfony) against Debian's php-symfony-lock 5.4 and
# phpunit 9.6 on 5 redis-servers (127.0.0.1:7801-7805). Installs what is missing, builds the
# extension when needed; exits non-zero on any failing test. About 17 s. REDLOCK_INTEGRATION_PORT=N and
# REDLOCK_TEST_DOWN_PORT=M move the servers and the refused ports (defaults 7801 and 7840).
# In .ci/run, before "== the suite" (whose line must close the log):
#   echo "== the Symfony Lock store"; bash .ci/symfony.sh
set -euo pipefail
cd "$(dirname "$0")/.."
export DEBIAN_FRONTEND=noninteractive
bash integrations/symfony/run-tests.sh
