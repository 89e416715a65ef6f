#include "solvers/lcp_active_set.h"

#include <Eigen/QR>

#include <cmath>

namespace arena {

namespace {

// Digest 3 (`ConstrainedGroupGradientMatrices::constructMatrices`).
constexpr double kClampingThreshold = 1e-6;
constexpr double kBoundTolerance = 1e-5;
constexpr double kIllegal = 1e-2;
constexpr double kNegligibleColumn = 1e-9;

bool IsFriction(const BoxedLcp& lcp, int i) { return !lcp.findex.empty() && lcp.findex[i] >= 0; }

}  // namespace

std::vector<int> LcpActiveSet::Indices(LcpRowClass c) const {
  std::vector<int> out;
  for (int i = 0; i < size(); ++i) {
    if (rows[i] == c) out.push_back(i);
  }
  return out;
}

LcpActiveSet ClassifyLcpSolution(const BoxedLcp& lcp, const VecX& x) {
  const int n = lcp.size();
  LcpActiveSet set;
  set.rows.assign(n, LcpRowClass::kSeparating);
  set.bound_sign.assign(n, 0);
  std::vector<bool> classified(n, false);
  VecX lo, hi;
  EffectiveBounds(lcp, x, &lo, &hi);
  for (int j = 0; j < n; ++j) {
    classified[j] = true;
    if (lcp.A.col(j).squaredNorm() < kNegligibleColumn) continue;
    const bool friction = IsFriction(lcp, j);
    if (std::abs(x[j]) < kClampingThreshold) {
      // Zero force: a friction row under a loaded normal is static friction (clamping); a
      // normal is separating (the paper's tie-break, Sec. IV-B).
      if (friction && std::abs(x[lcp.findex[j]]) >= kClampingThreshold) set.rows[j] = LcpRowClass::kClamping;
      continue;
    }
    const bool inside = x[j] > lo[j] + kBoundTolerance && x[j] < hi[j] - kBoundTolerance;
    const bool illegal = x[j] < lo[j] - kIllegal || x[j] > hi[j] + kIllegal;
    if (inside || illegal) {
      set.rows[j] = LcpRowClass::kClamping;
      continue;
    }
    if (friction) {
      const int f = lcp.findex[j];
      const bool normal_ok = std::abs(x[f]) > kNegligibleColumn &&
                             lcp.A.col(f).squaredNorm() > kNegligibleColumn &&
                             (!classified[f] || set.rows[f] == LcpRowClass::kClamping);
      if (normal_ok) {
        set.rows[j] = LcpRowClass::kUpperBound;
        set.bound_sign[j] = std::abs(x[j] - hi[j]) <= std::abs(x[j] - lo[j]) ? 1 : -1;
      }
    }
  }
  // A friction row's box is mu times its normal's impulse: it can carry force only if that
  // normal is clamping. The rules above can disagree (a normal of 1e-6..1e-5 is separating by
  // rule 5 while its unloaded friction rows are clamping by rule 2); such friction rows would
  // make the active-set solve give friction under a zero normal. They are separating here
  // (docs/deviations.md, seed 002).
  for (int j = 0; j < n; ++j) {
    if (IsFriction(lcp, j) && set.rows[lcp.findex[j]] != LcpRowClass::kClamping) {
      set.rows[j] = LcpRowClass::kSeparating;
      set.bound_sign[j] = 0;
    }
  }
  return set;
}

bool ClampDegenerateContacts(const BoxedLcp& lcp, const VecX& x, double tolerance, LcpActiveSet* set) {
  const int n = lcp.size();
  const VecX w = lcp.A * x - lcp.b;
  std::vector<bool> degenerate(n, false);
  for (int j = 0; j < n; ++j) {
    degenerate[j] = !IsFriction(lcp, j) && set->rows[j] == LcpRowClass::kSeparating &&
                    std::abs(w[j]) <= tolerance && lcp.A.col(j).squaredNorm() >= kNegligibleColumn;
  }
  bool any = false;
  for (int j = 0; j < n; ++j) {
    const int normal = IsFriction(lcp, j) ? lcp.findex[j] : j;
    if (!degenerate[normal]) continue;
    set->rows[j] = LcpRowClass::kClamping;
    set->bound_sign[j] = 0;
    any = true;
  }
  return any;
}

VecX SolveOnActiveSet(const BoxedLcp& lcp, const LcpActiveSet& set) {
  const int n = lcp.size();
  const std::vector<int> C = set.Indices(LcpRowClass::kClamping);
  const std::vector<int> UB = set.Indices(LcpRowClass::kUpperBound);
  const int nc = static_cast<int>(C.size());
  VecX x = VecX::Zero(n);
  if (nc == 0) return x;
  std::vector<int> position(n, -1);  // row -> index in C
  for (int a = 0; a < nc; ++a) position[C[a]] = a;
  // Q = A_CC + A_C,UB E, where E has one entry per bounded friction row: its box coefficient
  // (+mu or -mu) in the column of its normal.
  MatX Q(nc, nc);
  VecX bc(nc);
  for (int a = 0; a < nc; ++a) {
    bc[a] = lcp.b[C[a]];
    for (int c = 0; c < nc; ++c) Q(a, c) = lcp.A(C[a], C[c]);
  }
  for (int j : UB) {
    const int normal = position[lcp.findex[j]];
    if (normal < 0) continue;  // its normal is not clamping: no impulse to copy
    const double coefficient = set.bound_sign[j] > 0 ? lcp.hi[j] : lcp.lo[j];
    for (int a = 0; a < nc; ++a) Q(a, normal) += lcp.A(C[a], j) * coefficient;
  }
  const VecX fc = Eigen::CompleteOrthogonalDecomposition<MatX>(Q).solve(bc);
  for (int a = 0; a < nc; ++a) x[C[a]] = fc[a];
  for (int j : UB) {
    const int f = lcp.findex[j];
    if (position[f] < 0) continue;
    x[j] = (set.bound_sign[j] > 0 ? lcp.hi[j] : lcp.lo[j]) * std::abs(x[f]);
  }
  return x;
}

}  // namespace arena
