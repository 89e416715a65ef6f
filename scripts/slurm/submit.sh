#!/usr/bin/env bash
# Submits a sharded sweep to Slurm: one job array with a task per (experiment, shard) pair
# (scripts/slurm/shard.sh), then one job that waits for the whole array to succeed and merges
# the shards, draws the figures and writes the report (scripts/slurm/merge.sh).
#
#   scripts/slurm/submit.sh [options] [-- extra arena run args]
#
#   -e, --experiments LIST  experiments, comma- or space-separated (default: arena list --names)
#   -n, --shards N          shards per experiment (default 4)
#   -p, --profile P         config profile (default paper)
#   -o, --out DIR           results folder (default <repo>/results); the shards go to
#                           DIR/shards/<experiment>/<K>-of-<N>, the logs to DIR/shards/logs
#       --plots DIR         figures folder (default <repo>/plots/out, where arena report looks)
#       --arena PATH        arena binary (default <repo>/build/bin/arena)
#       --python PATH       python with matplotlib and pandas (default /usr/bin/python3)
#       --partition P, --time T, --cpus-per-task C
#                           passed to sbatch (a shard runs with --threads C, default 1)
#       --sbatch-arg ARG    any other sbatch option, e.g. --sbatch-arg=--mem=8G (repeatable)
#
# Example: scripts/slurm/submit.sh -n 8 --partition long --time 1-00:00:00 --cpus-per-task 4 \
#            -- --models silico,penalty
#
# The repository, the arena binary and the results folder must be on a file system that every
# node sees. Submitting the same command again resumes: each shard's folder resumes like any
# `arena run --out`, and the merge job rebuilds the merged tables from the shards.
set -euo pipefail

repo="$(cd "$(dirname "$0")/../.." && pwd)"
experiments=""
shards=4
profile=paper
out="$repo/results"
plots="$repo/plots/out"
arena="$repo/build/bin/arena"
python=/usr/bin/python3
sbatch_args=()   # for both jobs
shard_args=()    # for the array only
extra=()         # appended to every `arena run`

die() { echo "submit.sh: error: $*" >&2; exit 2; }
usage() { sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit "${1:-0}"; }
need() { [ $# -ge 2 ] || die "$1 needs a value"; }

while [ $# -gt 0 ]; do
  case "$1" in
    -e|--experiments) need "$@"; experiments="$2"; shift 2 ;;
    -n|--shards) need "$@"; shards="$2"; shift 2 ;;
    -p|--profile) need "$@"; profile="$2"; shift 2 ;;
    -o|--out) need "$@"; out="$2"; shift 2 ;;
    --plots) need "$@"; plots="$2"; shift 2 ;;
    --arena) need "$@"; arena="$2"; shift 2 ;;
    --python) need "$@"; python="$2"; shift 2 ;;
    --partition|--time) need "$@"; sbatch_args+=("$1=$2"); shift 2 ;;
    --cpus-per-task) need "$@"; shard_args+=("$1=$2"); shift 2 ;;
    --sbatch-arg) need "$@"; sbatch_args+=("$2"); shift 2 ;;
    --sbatch-arg=*) sbatch_args+=("${1#--sbatch-arg=}"); shift ;;
    -h|--help) usage 0 ;;
    --) shift; extra=("$@"); break ;;
    *) die "unknown option '$1' (arena run args go after --; see --help)" ;;
  esac
done

command -v sbatch >/dev/null || die "sbatch not found: run this on a Slurm login node"
[ -x "$arena" ] || die "no arena binary at $arena (make build, or give --arena)"
[[ "$shards" =~ ^[1-9][0-9]*$ ]] || die "--shards must be a positive integer, not '$shards'"
# The shard job sets these itself; a second value would make a different sweep or fail.
for a in "${extra[@]}"; do
  case "$a" in
    --out|--out=*|--shard|--shard=*|--mpi|--profile|--profile=*)
      die "'$a' is set by the Slurm jobs; give submit.sh --out, --shards or --profile instead" ;;
    --threads|--threads=*) die "a shard runs with --threads = its --cpus-per-task; give --cpus-per-task to submit.sh" ;;
  esac
done

known="$("$arena" list --names)"
if [ -z "$experiments" ]; then experiments="$known"; fi
experiments="$(echo "$experiments" | tr ',' ' ' | xargs)"   # one line, single spaces
for e in $experiments; do
  grep -qx -- "$e" <<<"$known" || die "unknown experiment '$e' (arena list --names)"
done
count=$(wc -w <<<"$experiments")
tasks=$((count * shards))

# The jobs run on other nodes, maybe from another folder: give them absolute paths.
arena="$(realpath "$arena")"
mkdir -p "$out/shards/logs" "$plots"   # sbatch does not create the log folder
out="$(realpath "$out")"
plots="$(realpath "$plots")"

# Array task i runs shard (i mod N) + 1 of experiment i / N (shard.sh does the arithmetic).
array_id=$(sbatch --parsable --job-name=arena-shards --array="0-$((tasks - 1))" \
  --chdir="$repo" --output="$out/shards/logs/shard-%A_%a.log" \
  "${sbatch_args[@]}" "${shard_args[@]}" \
  "$repo/scripts/slurm/shard.sh" "$arena" "$profile" "$shards" "$out" "$experiments" "${extra[@]}")
array_id="${array_id%%;*}"   # --parsable prints "id" or "id;cluster"

# afterok on an array waits for every task to succeed. If one fails the dependency can never
# be met: --kill-on-invalid-dep cancels the merge job instead of leaving it pending forever.
# $experiments unquoted: one argument per experiment.
merge_id=$(sbatch --parsable --job-name=arena-merge --dependency="afterok:$array_id" \
  --kill-on-invalid-dep=yes --chdir="$repo" --output="$out/shards/logs/merge-%j.log" \
  "${sbatch_args[@]}" \
  "$repo/scripts/slurm/merge.sh" "$arena" "$python" "$shards" "$out" "$plots" $experiments)
merge_id="${merge_id%%;*}"

echo "array job: $array_id ($tasks tasks: $count experiments x $shards shards, profile $profile)"
echo "merge job: $merge_id (after every task succeeds; results in $out)"
echo "logs: $out/shards/logs"
