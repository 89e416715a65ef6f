#!/usr/bin/env bash
# `make fuzz`: builds the loaders' libFuzzer targets (tests/fuzz) with clang, ASan and UBSan into
# build-fuzz, and runs each for FUZZ_SECONDS, as many at once as there are cores. The seed corpus
# (tests/fuzz/corpus/<target>) is copied into build-fuzz/corpus/<target>, where libFuzzer keeps
# what it learns; an input that crashes, hangs (> 10 s) or leaks is written to
# build-fuzz/findings/<target>/. Prints a table (target, executions, coverage, findings) and
# exits non-zero if any target found something.
#   scripts/fuzz.sh SECONDS [TARGET...]     (default: every target)
set -euo pipefail
cd "$(dirname "$0")/.."
seconds="${1:-600}"; shift || true
targets=("$@")
if [ ${#targets[@]} -eq 0 ]; then targets=(urdf mjcf stl obj toml); fi
jobs="$(nproc)"
build=build-fuzz

scripts/install-deps.sh fuzz
# Release at -O1 without NDEBUG: Eigen's and our own assertions stay on, so a bad index is found.
cmake -S . -B "$build" -DCMAKE_CXX_COMPILER=clang++-14 -DARENA_FUZZ=ON -DARENA_BUILD_BENCH=OFF \
      -DCMAKE_BUILD_TYPE=Release -DCMAKE_CXX_FLAGS_RELEASE="-O1" >/dev/null
mkdir -p "$build/logs"
if ! cmake --build "$build" -j "$jobs" --target "${targets[@]/#/fuzz_}" >"$build/logs/build.log" 2>&1; then
  tail -n 40 "$build/logs/build.log"; echo "fuzz: the build failed (log: $build/logs/build.log)" >&2; exit 1
fi
# Leaks inside urdfdom and assimp are theirs (tests/fuzz/lsan.supp); ours are still findings.
export LSAN_OPTIONS="suppressions=$PWD/tests/fuzz/lsan.supp${LSAN_OPTIONS:+:$LSAN_OPTIONS}"

run_one() {
  local t="$1"
  mkdir -p "$build/corpus/$t" "$build/findings/$t"
  cp -n tests/fuzz/corpus/"$t"/* "$build/corpus/$t"/
  # The first folder receives new inputs; the repository's corpus is only read.
  "$build/fuzz/fuzz_$t" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=4096 \
      -print_final_stats=1 -artifact_prefix="$build/findings/$t/" \
      "$build/corpus/$t" >"$build/logs/$t.log" 2>&1 || true
}

echo "fuzz: ${targets[*]} for ${seconds} s each, ${jobs} at a time (logs in $build/logs/)"
running=0
for t in "${targets[@]}"; do
  run_one "$t" &
  running=$((running + 1))
  if [ "$running" -ge "$jobs" ]; then wait -n; running=$((running - 1)); fi
done
wait

status=0
printf '%-6s %12s %8s %9s\n' target executions coverage findings
for t in "${targets[@]}"; do
  log="$build/logs/$t.log"
  execs="$(grep -o 'stat::number_of_executed_units: [0-9]*' "$log" | awk '{print $2}' | tail -1)"
  cov="$(grep -o 'cov: [0-9]*' "$log" | tail -1 | awk '{print $2}')"
  found="$(find "$build/findings/$t" -type f | wc -l)"
  printf '%-6s %12s %8s %9s\n' "$t" "${execs:-?}" "${cov:-?}" "$found"
  if [ "$found" -gt 0 ]; then status=1; fi
  if [ -z "$execs" ]; then echo "fuzz: $t did not finish; see $log" >&2; status=1; fi
done
exit $status
