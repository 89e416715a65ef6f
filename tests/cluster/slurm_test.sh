#!/usr/bin/env bash
# `make test-cluster`: brings up a one-node Slurm cluster on this machine, submits a small sweep
# with scripts/slurm/submit.sh (2 shards in a job array, then the dependent merge job), and
# checks the merged table against an unsharded run of the same sweep with `arena compare
# --tolerance 0` (every non-timing cell equal, no case missing on either side; the rule of the
# repo's shard and MPI tests), plus the row order, the figure and the report.
#
#   tests/cluster/slurm_test.sh [ARENA] [PYTHON]
#
# Needs root: it installs Debian's slurm-wlm and munge if missing and runs their daemons as
# root. Everything else lives in a temp folder under /tmp (kept only on failure), with its own
# munge key and socket, and its own ports, so nothing of a real Slurm or munge on the machine
# is used or touched. The daemons are stopped on exit.
#
# What makes it work in a container (no systemd, no cgroups): munged, slurmctld and slurmd are
# started by hand; processes are tracked through /proc (proctrack/linuxproc) rather than
# cgroups; no task binding or accounting plugins; the node's CPUs and memory come from
# `slurmd -C`, so they match what slurmd finds.
set -euo pipefail

repo="$(cd "$(dirname "$0")/../.." && pwd)"
arena="$(realpath "${1:-$repo/build/bin/arena}")"
python="${2:-/usr/bin/python3}"
# The sweep: box_drop with one model and one variant at the quick profile, 240 short cases
# (about a second unsharded). ARENA_SLURM_TEST_PROFILE=paper ARENA_SLURM_TEST_MODELS="silico
# bilevel" runs the paper sweep of README's seed-000 table instead (7200 cases, minutes).
exp=box_drop
profile="${ARENA_SLURM_TEST_PROFILE:-quick}"
read -ra models <<<"${ARENA_SLURM_TEST_MODELS:-silico}"
run_args=(--models "${models[@]}" --set 'variants=["planar"]')
timeout_s=3600   # for the jobs; the quick sweep takes well under a minute here

start=$SECONDS
fail() { echo "slurm_test: FAIL: $*" >&2; exit 1; }
say() { echo "slurm_test: $*"; }

[ "$(id -u)" -eq 0 ] || fail "run as root (it installs packages and runs the Slurm daemons as root)"
[ -x "$arena" ] || fail "no arena binary at $arena (make build)"

# Debian 12 packages, installed only when missing (as scripts/install-deps.sh does). Their
# postinst does not start the services in a container, and we start our own anyway.
missing=()
for p in slurm-wlm munge; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  say "installing ${missing[*]}"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

tmp="$(mktemp -d /tmp/arena-slurm-test.XXXXXX)"
# munged wants the folders on its socket's path open to all (execute permission).
chmod 755 "$tmp"
mkdir -p "$tmp/munge" "$tmp/state" "$tmp/spool" "$tmp/log"
chmod 755 "$tmp/munge"
export SLURM_CONF="$tmp/slurm.conf"
# A surrounding Slurm job's settings (SBATCH_PARTITION, SLURM_JOB_ID, ...) would leak into sbatch.
for v in $(compgen -e | grep -E '^(SBATCH|SLURM)_' | grep -vx SLURM_CONF || true); do unset "$v"; done

cleanup() {
  local rc=$?
  # Cancel what is left (only after a failure), then stop the daemons this script started.
  if [ -f "$tmp/slurmctld.pid" ]; then scancel --quiet --full --user=root 2>/dev/null || true; fi
  for pidfile in "$tmp/slurmd.pid" "$tmp/slurmctld.pid" "$tmp/munge/munged.pid"; do
    [ -f "$pidfile" ] || continue
    pid="$(cat "$pidfile")"
    kill "$pid" 2>/dev/null || continue
    for _ in $(seq 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.2; done
  done
  if [ $rc -eq 0 ]; then
    rm -rf "$tmp"
  else
    echo "slurm_test: kept $tmp (logs in $tmp/log and $tmp/results/shards/logs)" >&2
  fi
}
trap cleanup EXIT

# munge: a fresh key and a private socket, so no system munged is needed or disturbed.
mungekey --create --keyfile "$tmp/munge/munge.key"
munged --key-file="$tmp/munge/munge.key" --socket="$tmp/munge/munge.socket.2" \
  --pid-file="$tmp/munge/munged.pid" --log-file="$tmp/log/munged.log" \
  --seed-file="$tmp/munge/munged.seed" || fail "munged did not start (see $tmp/log/munged.log)"

# slurm.conf: one node, this host, at 127.0.0.1; ports off Slurm's defaults (6817/6818).
host="$(hostname -s)"
node="$(slurmd -C | head -n 1)"   # NodeName=<host> CPUs=... RealMemory=...
cat >"$SLURM_CONF" <<CONF
ClusterName=arenatest
SlurmctldHost=$host(127.0.0.1)
SlurmctldPort=16817
SlurmdPort=16818
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$tmp/munge/munge.socket.2
StateSaveLocation=$tmp/state
SlurmdSpoolDir=$tmp/spool
SlurmctldPidFile=$tmp/slurmctld.pid
SlurmdPidFile=$tmp/slurmd.pid
SlurmctldLogFile=$tmp/log/slurmctld.log
SlurmdLogFile=$tmp/log/slurmd.log
# No cgroups here: track job processes through /proc, no task binding, no accounting.
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
MpiDefault=none
SwitchType=switch/none
SchedulerType=sched/backfill
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
ReturnToService=2
$node NodeAddr=127.0.0.1 State=UNKNOWN
PartitionName=test Nodes=ALL Default=YES MaxTime=INFINITE State=UP
CONF

# Both daemonize; their pid files are how cleanup finds them.
slurmctld -f "$SLURM_CONF" || fail "slurmctld did not start (see $tmp/log/slurmctld.log)"
slurmd -f "$SLURM_CONF" || fail "slurmd did not start (see $tmp/log/slurmd.log)"
say "waiting for node $host to be idle"
state=""
for _ in $(seq 60); do
  state="$(sinfo -h -N -o %t 2>/dev/null || true)"
  [ "$state" = idle ] && break
  sleep 1
done
[ "$state" = idle ] || fail "node not idle after 60 s (state '$state'; see $tmp/log)"
say "cluster up: $(sinfo -h -N -o '%N %c CPUs %m MB %t')"

# The reference: the same sweep, unsharded, outside Slurm.
say "unsharded run"
"$arena" run "$exp" --profile "$profile" "${run_args[@]}" --no-progress --out "$tmp/unsharded" >"$tmp/log/unsharded.log" 2>&1 ||
  fail "the unsharded run failed (see $tmp/log/unsharded.log)"

say "submitting 2 shards + merge"
submitted="$("$repo/scripts/slurm/submit.sh" --arena "$arena" --python "$python" --experiments "$exp" \
  --profile "$profile" --shards 2 --out "$tmp/results" --plots "$tmp/plots" -- "${run_args[@]}")" || fail "submit.sh failed"
echo "$submitted"
array_id="$(awk '/^array job:/ {print $3}' <<<"$submitted")"
merge_id="$(awk '/^merge job:/ {print $3}' <<<"$submitted")"
[ -n "$array_id" ] && [ -n "$merge_id" ] || fail "no job ids in submit.sh's output"

# Wait until the merge job has left the queue, then ask the controller how each job ended
# (without accounting there is no sacct; finished jobs stay in scontrol for MinJobAge, 300 s).
deadline=$((SECONDS + timeout_s))
while [ -n "$(squeue -h -j "$array_id,$merge_id" 2>/dev/null)" ]; do
  [ $SECONDS -lt $deadline ] || fail "jobs still queued after $timeout_s s: $(squeue -h -j "$array_id,$merge_id")"
  sleep 2
done
job_states() { scontrol -o show job "$1" | grep -o 'JobState=[A-Z_]*' | cut -d= -f2 | sort | uniq -c | xargs; }
say "array job $array_id: $(job_states "$array_id"); merge job $merge_id: $(job_states "$merge_id")"
for log in "$tmp/results/shards/logs"/*.log; do
  [ -f "$log" ] || continue
  echo "---- $(basename "$log")"
  cat "$log"
done
[ "$(job_states "$array_id")" = "2 COMPLETED" ] || fail "a shard task did not complete: $(job_states "$array_id")"
[ "$(job_states "$merge_id")" = "1 COMPLETED" ] || fail "the merge job did not complete: $(job_states "$merge_id")"

# The merged table must be the unsharded run's: every non-timing cell exactly, no case missing
# or extra (arena compare exits 1 on either), ...
say "arena compare unsharded merged --tolerance 0"
"$arena" compare "$tmp/unsharded" "$tmp/results" --tolerance 0 | tee "$tmp/log/compare.txt" ||
  fail "the merged results differ from the unsharded run (see above)"
grep -q '^no regression: 0 of' "$tmp/log/compare.txt" || fail "arena compare did not report 0 differing cells"
# ... with the rows in the same (sweep) order ...
"$python" - "$tmp/unsharded/$exp/$exp.csv" "$tmp/results/$exp/$exp.csv" <<'PY' || fail "the rows are in another order"
import csv, sys
ids = [[row["case_id"] for row in csv.DictReader(open(path))] for path in sys.argv[1:]]
sys.exit(0 if ids[0] == ids[1] and ids[0] else 1)
PY
# ... and the merge job drew the experiment's figures and wrote the report.
for plot in $("$arena" list --plots "$exp"); do
  [ -s "$tmp/plots/$plot.png" ] || fail "no figure $tmp/plots/$plot.png"
done
[ -s "$tmp/results/REPORT.md" ] || fail "no $tmp/results/REPORT.md"

rows=$(($(wc -l <"$tmp/results/$exp/$exp.csv") - 1))
say "PASS: $exp in 2 Slurm shards + merge equals the unsharded run ($rows rows), in $((SECONDS - start)) s"
