#!/usr/bin/env bash
# `make reproduce`: run every registered experiment at a profile, draw every figure from the
# CSVs, and write results/REPORT.md + results/report.json. A failing experiment or plot is
# reported and the rest go on; the exit status is non-zero if anything failed. The paper profile
# ends by writing the snapshot results/paper/ (scripts/paper_snapshot.py).
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
# The paper profile also refreshes the committed snapshot (results/paper/) that README quotes.
if [ "$profile" = "paper" ]; then
  "$python" scripts/paper_snapshot.py --arena "$arena" --python "$python" || status=1
  echo "Snapshot: results/paper/REPORT.md (commit it; scripts/readme_results.py --write refreshes README)"
fi
exit $status
