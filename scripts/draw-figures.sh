#!/usr/bin/env bash
# Draws every figure of one experiment from its CSV (the plots `arena list --plots E` names),
# into OUT/<plot>.png, and a co-design run's optimised shapes (its design rows) into
# OUT/<experiment>_design.obj (`arena export-design`). Used by scripts/reproduce.sh, the Slurm merge job and the paper snapshot.
# A missing CSV or a failing plot is reported; the exit status is non-zero if any failed.
#   scripts/draw-figures.sh ARENA PYTHON EXPERIMENT CSV OUT
set -uo pipefail
arena="$1"; python="$2"; exp="$3"; csv="$4"; out="$5"
plots_src="$(cd "$(dirname "$0")/../plots" && pwd)"
mkdir -p "$out"
status=0
for plot in $("$arena" list --plots "$exp"); do
  if [ ! -f "$csv" ]; then
    echo "draw-figures: no $csv for plot $plot" >&2
    status=1
    continue
  fi
  echo "   plot $plot"
  if ! "$python" "$plots_src/$plot.py" "$csv" "$out/$plot.png"; then
    echo "draw-figures: plot $plot failed" >&2
    status=1
  fi
done
if [ -f "$csv" ] && grep -q ',design,' "$csv"; then
  echo "   design $out/${exp}_design.obj"
  "$arena" export-design "$csv" --out "$out/${exp}_design.obj" >/dev/null || status=1
fi
exit $status
