#!/usr/bin/env bash
# `make reproduce`: run every registered experiment at a profile, draw every figure from the
# CSVs, and write results/REPORT.md + results/report.json. A failing experiment or plot is
# reported and the rest go on; the exit status is non-zero if anything failed.
set -uo pipefail
arena="$1"; profile="$2"; threads="$3"; python="$4"
cd "$(dirname "$0")/.."
mkdir -p plots/out results
status=0
for exp in $("$arena" list --names); do
  echo "== $exp ($profile)"
  if ! "$arena" run "$exp" --profile "$profile" --threads "$threads"; then
    echo "reproduce: experiment $exp failed" >&2
    status=1
  fi
  scripts/draw-figures.sh "$arena" "$python" "$exp" "results/$exp/$exp.csv" plots/out || status=1
done
"$arena" report || status=1
echo "Report: results/REPORT.md"
exit $status
