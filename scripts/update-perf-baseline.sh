#!/usr/bin/env bash
# Rewrites bench/perf/baseline.json from a fresh run of the perf suite on this machine, keeping
# each benchmark's limit. Run it only after an intended change of speed (or on a new reference
# machine), and say in the commit message what changed and why.
set -euo pipefail
cd "$(dirname "$0")/.."
make -s build-bench
/usr/bin/python3 scripts/perf.py --bench build/bin/arena_bench --update
