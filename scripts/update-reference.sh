#!/usr/bin/env bash
# Regenerates tests/data/reference/<experiment>/ from a fresh quick-profile run, for the regression
# tests (tests/experiments/*_test.cc). Run it only after an intended change of results, and say
# in the commit message what changed and why.
#   scripts/update-reference.sh [experiment ...]     (default: every registered experiment)
set -euo pipefail
cd "$(dirname "$0")/.."
make -s build
arena=build/bin/arena
exps=("$@")
[ ${#exps[@]} -gt 0 ] || mapfile -t exps < <("$arena" list --names)
tmp=$(mktemp -d)
for exp in "${exps[@]}"; do
  "$arena" run "$exp" --profile quick --out "$tmp" --no-progress
  mkdir -p "tests/data/reference/$exp"
  cp "$tmp/$exp/$exp.csv" "tests/data/reference/$exp/$exp.csv"
  echo "updated tests/data/reference/$exp/$exp.csv"
done
rm -rf "$tmp"
