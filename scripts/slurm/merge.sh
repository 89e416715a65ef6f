#!/usr/bin/env bash
# The job that scripts/slurm/submit.sh makes wait for the whole shard array: per experiment,
# `arena merge` of its N shards into OUT, then its figures; then `arena report` of OUT.
# This is what scripts/reproduce.sh does after its runs, with the runs done by the array.
#   merge.sh ARENA PYTHON N OUT PLOTS EXPERIMENT...
# A failing merge or plot is reported and the rest go on; the exit status says if any failed.
set -euo pipefail

arena="$1"; python="$2"; n="$3"; out="$4"; plots="$5"
# Slurm runs a copy of this script from its spool folder, so $0 does not locate the repository;
# submit.sh starts the job in it (--chdir).
repo="$PWD"
shift 5

status=0
for exp in "$@"; do
  shard_dirs=()
  for k in $(seq 1 "$n"); do shard_dirs+=("$out/shards/$exp/$k-of-$n"); done
  echo "== merge $exp ($n shards)"
  # --fresh: the shards are the record; the merged table is rebuilt from them every time
  # (a resubmission may have resumed a shard since the last merge).
  if ! "$arena" merge "$exp" "${shard_dirs[@]}" --out "$out" --fresh; then
    echo "merge.sh: merging $exp failed" >&2
    status=1
    continue
  fi
  "$repo/scripts/draw-figures.sh" "$arena" "$python" "$exp" "$out/$exp/$exp.csv" "$plots" || status=1
done
"$arena" report --results "$out" || status=1
exit $status
