#!/usr/bin/env bash
# The mutation chapter: every mutation of verify/mutations/list planted in a scratch copy of the tree, built,
# and required to make one of the tests it names fail. Ends with "mutations: N caught, M survived"
# and exits non-zero on any survivor or on a list that no longer matches the tree. See verify/mutations/README.md.
#   bash verify/mutations/run.sh [--check] [--no-baseline] [NAME...]
#   REDLOCK_TEST_PORT=7701   first port of the 5 servers it starts (the tests' private ones are above it)
set -uo pipefail
cd "$(dirname "$0")/../.."
exec php verify/mutations/run.php "$@"
