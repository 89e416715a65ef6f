// The perf suite's calibration kernel (scripts/perf.py): a fixed dense Cholesky factorization,
// timed in the same run as the suite, so that the suite's figures are ratios to it and a faster
// or slower machine (or a loaded one) moves both alike. Dense linear algebra, because it is what
// most of the models' steps spend their time on.
#include <benchmark/benchmark.h>

#include <Eigen/Cholesky>

#include "core/math/types.h"

namespace arena {
namespace calibration_bench {

void BM_Calibration(benchmark::State& state) {
  const int n = static_cast<int>(state.range(0));
  MatX A = MatX::Zero(n, n);
  for (int i = 0; i < n; ++i) {
    for (int j = 0; j < n; ++j) A(i, j) = 1.0 / (1.0 + i + j);  // Hilbert-like, made definite below
  }
  A.diagonal().array() += n;
  for (auto _ : state) {
    Eigen::LLT<MatX> llt(A);
    benchmark::DoNotOptimize(llt.matrixLLT().data());
  }
}
BENCHMARK(BM_Calibration)->Arg(192);

}  // namespace calibration_bench
}  // namespace arena
