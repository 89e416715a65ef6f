#!/usr/bin/env bash
# One task of the job array that scripts/slurm/submit.sh submits: one shard of one experiment.
#   shard.sh ARENA PROFILE N OUT "EXPERIMENT..." [extra arena run args...]
# Task i runs shard (i mod N) + 1 of the (i / N)-th experiment into OUT/shards/E/K-of-N, a
# folder of its own, so that a resubmitted task resumes where it stopped.
set -euo pipefail

arena="$1"; profile="$2"; n="$3"; out="$4"
read -ra experiments <<<"$5"
shift 5   # what is left: the extra arena run args

i="${SLURM_ARRAY_TASK_ID:?shard.sh runs as a task of a Slurm job array (scripts/slurm/submit.sh)}"
exp="${experiments[i / n]:?no experiment for array task $i}"
k=$((i % n + 1))
# arena's default is every core of the node; use only the cores Slurm gave this task.
threads="${SLURM_CPUS_PER_TASK:-1}"

echo "arena-shards: $exp shard $k/$n ($profile) on $(hostname), $threads threads"
exec "$arena" run "$exp" --profile "$profile" --shard "$k/$n" --out "$out/shards/$exp/$k-of-$n" \
  --threads "$threads" --no-progress "$@"
