#!/bin/bash
# The defects of issue 32 re-introduced one at a time (verify/chaos/defects.php), each judged by the checker
# after a short seeded chaos run on the mutant (verify/chaos/planted.php).
#   bash verify/chaos/replant.sh [--control] [--port-base=8750] [--duration=S] [--seed=N] N...   (no N: all twenty)
# A defect outside the checker's scope is printed with why and not run. Not a CI step.
set -euo pipefail
cd "$(dirname "$0")/../.."
opts=() defects=()
for a in "$@"; do
	case "$a" in
	--*) opts+=("$a") ;;
	*) defects+=("defect-$a") ;;
	esac
done
[ ${#defects[@]} -gt 0 ] || for n in $(seq 1 20); do defects+=("defect-$n"); done
exec php verify/chaos/planted.php "${opts[@]}" "${defects[@]}"
