#!/usr/bin/env bash
# The billiards frame (seed 004 Fig. 5: a longrange step and its Derivatives, 512 ball triangles)
# of this checkout against an older commit's own bench binary, side by side on this machine:
# rounds of A (this build) and B (the old binary) in turn, one thread each (taskset), then this
# build on every core. docs/models/longrange.md quotes its output.
#   scripts/ab-billiards-frame.sh [OLD_COMMIT (503b8b8)] [ROUNDS (3)]
# The old commit is built once in a worktree beside the clone (../arena-ab-<commit>). Its bench has
# no frame benchmark: its frame is its step plus its Derivatives (which evaluate the Hessian anew).
set -euo pipefail
cd "$(dirname "$0")/.."
old=${1:-503b8b8}
rounds=${2:-3}
tree=../arena-ab-$old
[ -d "$tree" ] || git worktree add --detach "$tree" "$old"
(cd "$tree" && export CCACHE_BASEDIR=$PWD && cmake -S . -B build -DCMAKE_BUILD_TYPE=Release >/dev/null &&
  cmake --build build -j "$(nproc)" --target arena_bench >/dev/null)
make -s build-bench
A=build/bin/arena_bench B=$tree/build/bin/arena_bench
cpu=$(( $(nproc) - 1 ))
median() { sort -g | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
ms() { grep -E "^$1 " | awk '{print $2}'; }  # real time, ms
: >/tmp/ab_a.txt; : >/tmp/ab_b.txt
for r in $(seq "$rounds"); do
  taskset -c "$cpu" "$A" --benchmark_filter='BM_BilliardsFrame/longrange/threads:1' --benchmark_min_time=3 >>/tmp/ab_a.txt 2>/dev/null
  taskset -c "$cpu" "$B" --benchmark_filter='BM_Billiards(Step/longrange$|Derivatives/longrange)' --benchmark_min_time=3 >>/tmp/ab_b.txt 2>/dev/null
done
"$A" --benchmark_filter='BM_BilliardsFrame/longrange/threads:[12]' --benchmark_min_time=3 >>/tmp/ab_a.txt 2>/dev/null
a1=$(ms 'BM_BilliardsFrame/longrange/threads:1/real_time' </tmp/ab_a.txt | median)
step=$(ms 'BM_BilliardsStep/longrange' </tmp/ab_b.txt | median)
deriv=$(ms 'BM_BilliardsDerivatives/longrange' </tmp/ab_b.txt | median)
a2=$(grep -E '^BM_BilliardsFrame/longrange/threads:2/' /tmp/ab_a.txt | tail -1 | awk '{print $2}')
a1all=$(grep -E '^BM_BilliardsFrame/longrange/threads:1/' /tmp/ab_a.txt | tail -1 | awk '{print $2}')
awk -v a="$a1" -v s="$step" -v d="$deriv" -v t2="$a2" -v t1="$a1all" -v old="$old" 'BEGIN {
  printf "billiards frame, one thread (medians of the rounds): %s %.1f ms (step %.1f + Derivatives %.1f), this build %.1f ms: %.2fx\n", old, s + d, s, d, a, (s + d) / a;
  printf "this build, %s: 1 thread %.1f ms, 2 threads %.1f ms: %.2fx\n", "every core free", t1, t2, t1 / t2 }'
grep -E '^BM_BilliardsFrame/longrange/threads:1/' /tmp/ab_a.txt | tail -1
