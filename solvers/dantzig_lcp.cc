#include "solvers/dantzig_lcp.h"

#include <Eigen/Cholesky>
#include <Eigen/QR>

#include <algorithm>
#include <cmath>
#include <limits>
#include <utility>
#include <vector>

#include "core/common/deadline.h"
#include "core/common/error.h"

namespace arena {

namespace {


enum class RowSet { kPending, kFree, kLower, kUpper, kFixed };

// What stopped a pivot.
enum class Event { kDrivenZero, kDrivenBound, kFreeToBound, kBoundToFree };

class DantzigSolver {
 public:
  DantzigSolver(const BoxedLcp& lcp, const DantzigOptions& o)
      : lcp_(lcp), o_(o), n_(lcp.size()), A_(lcp.A), x_(VecX::Zero(n_)), w_(-lcp.b), lo_(lcp.lo), hi_(lcp.hi),
        set_(n_, RowSet::kPending) {
    A_.diagonal().array() += o.cfm;
  }

  LcpResult Solve() {
    LcpResult result;
    // Baraff's order: normal (and plain bounded) rows first, friction rows once their normals
    // carry impulses.
    std::vector<int> order;
    for (int i = 0; i < n_; ++i) {
      if (!IsFriction(i)) order.push_back(i);
    }
    for (int i = 0; i < n_; ++i) {
      if (IsFriction(i)) order.push_back(i);
    }
    const int max_pivots = o_.max_pivots_per_row * std::max(n_, 1);
    for (int i : order) {
      if (IsFriction(i)) {
        const double normal = std::abs(x_[lcp_.findex[i]]);
        lo_[i] = lcp_.lo[i] * normal;
        hi_[i] = lcp_.hi[i] * normal;
      }
      const LcpStatus status = AddRow(i, max_pivots, &result.iterations);
      if (status != LcpStatus::kSolved) {
        result.x = x_;
        result.status = status;
        result.violation = LcpViolation(lcp_, x_);
        return result;
      }
    }
    result.x = x_;
    result.violation = LcpViolation(lcp_, x_);
    result.status = result.violation <= o_.tolerance ? LcpStatus::kSolved : LcpStatus::kInvalid;
    return result;
  }

 private:
  bool IsFriction(int i) const { return !lcp_.findex.empty() && lcp_.findex[i] >= 0; }

  // Drives row i into complementarity. kSolved when it got there.
  LcpStatus AddRow(int i, int max_pivots, int* pivots) {
    if (hi_[i] - lo_[i] <= 0.0) {  // a collapsed box: x_i = 0 whatever w_i
      set_[i] = RowSet::kFixed;
      return LcpStatus::kSolved;
    }
    int stalled = 0;  // consecutive pivots of length zero
    while (true) {
      if (!std::isfinite(w_[i])) return LcpStatus::kFailed;
      if (w_[i] == 0.0) return Settle(i), LcpStatus::kSolved;
      if (w_[i] > 0.0 && x_[i] <= lo_[i]) return set_[i] = RowSet::kLower, LcpStatus::kSolved;
      if (w_[i] < 0.0 && x_[i] >= hi_[i]) return set_[i] = RowSet::kUpper, LcpStatus::kSolved;
      // The pivot limit, or the case's wall-clock budget (core/common/deadline.h).
      if (++*pivots > max_pivots || DeadlinePassed()) return LcpStatus::kMaxIterations;
      const double s = w_[i] < 0.0 ? 1.0 : -1.0;  // dw_i/dx_i = A_ii >= 0: raise x_i to raise w_i
      Direction(i, s);
      // The first event along x + t dx.
      double t = kInf;
      int blocking = -1;
      Event event = Event::kDrivenZero;
      auto consider = [&](double candidate, int row, Event e) {
        if (candidate < t) {
          t = std::max(candidate, 0.0);
          blocking = row;
          event = e;
        }
      };
      if (dw_[i] * s > o_.zero) consider(-w_[i] / dw_[i], i, Event::kDrivenZero);
      consider(s > 0.0 ? hi_[i] - x_[i] : x_[i] - lo_[i], i, Event::kDrivenBound);
      for (int j = 0; j < n_; ++j) {
        switch (set_[j]) {
          case RowSet::kFree:
            if (dx_[j] < -o_.zero) consider((lo_[j] - x_[j]) / dx_[j], j, Event::kFreeToBound);
            if (dx_[j] > o_.zero) consider((hi_[j] - x_[j]) / dx_[j], j, Event::kFreeToBound);
            break;
          case RowSet::kLower:
            if (dw_[j] < -o_.zero) consider(-w_[j] / dw_[j], j, Event::kBoundToFree);
            break;
          case RowSet::kUpper:
            if (dw_[j] > o_.zero) consider(-w_[j] / dw_[j], j, Event::kBoundToFree);
            break;
          default:
            break;
        }
      }
      if (!std::isfinite(t)) return LcpStatus::kFailed;  // a ray: nothing blocks the drive
      // A degenerate cycle: a row that depends on the free set freed and bound again at t = 0
      // (dantzig_lcp.h). It does not end by itself; give up now rather than at the pivot limit.
      stalled = t > 0.0 ? 0 : stalled + 1;
      if (stalled > o_.max_pivots_per_row) return LcpStatus::kMaxIterations;
      x_ += t * dx_;
      w_ += t * dw_;
      switch (event) {
        case Event::kDrivenZero:
          w_[i] = 0.0;
          Settle(i);
          return LcpStatus::kSolved;
        case Event::kDrivenBound:
          x_[i] = s > 0.0 ? hi_[i] : lo_[i];
          set_[i] = s > 0.0 ? RowSet::kUpper : RowSet::kLower;
          return LcpStatus::kSolved;
        case Event::kFreeToBound: {
          const bool upper = dx_[blocking] > 0.0;
          x_[blocking] = upper ? hi_[blocking] : lo_[blocking];
          set_[blocking] = upper ? RowSet::kUpper : RowSet::kLower;
          break;
        }
        case Event::kBoundToFree:
          w_[blocking] = 0.0;
          set_[blocking] = RowSet::kFree;
          break;
      }
    }
  }

  // Row i with w_i = 0 joins the free set, or its bound's set when it sits on one.
  void Settle(int i) {
    if (x_[i] <= lo_[i]) {
      set_[i] = RowSet::kLower;
    } else if (x_[i] >= hi_[i]) {
      set_[i] = RowSet::kUpper;
    } else {
      set_[i] = RowSet::kFree;
    }
  }

  // dx, dw for driving x_i by s: dx_i = s, A_CC dx_C = -s A_Ci (free rows keep w = 0), the
  // other rows hold x. A_CC is solved with LDL^T, or with a complete orthogonal decomposition
  // (minimum norm) when redundant contacts make it singular.
  void Direction(int i, double s) {
    free_.clear();
    for (int j = 0; j < n_; ++j) {
      if (set_[j] == RowSet::kFree) free_.push_back(j);
    }
    dx_.setZero(n_);
    dx_[i] = s;
    const int m = static_cast<int>(free_.size());
    if (m > 0) {
      MatX Acc(m, m);
      VecX rhs(m);
      for (int a = 0; a < m; ++a) {
        rhs[a] = -s * A_(free_[a], i);
        for (int c = 0; c < m; ++c) Acc(a, c) = A_(free_[a], free_[c]);
      }
      Eigen::LDLT<MatX> ldlt(Acc);
      VecX sol;
      if (ldlt.info() == Eigen::Success && ldlt.isPositive() && ldlt.vectorD().minCoeff() > 1e-12 * Acc.diagonal().maxCoeff()) {
        sol = ldlt.solve(rhs);
      } else {
        sol = Eigen::CompleteOrthogonalDecomposition<MatX>(Acc).solve(rhs);
      }
      for (int a = 0; a < m; ++a) dx_[free_[a]] = sol[a];
    }
    dw_ = A_ * dx_;
    for (int j : free_) dw_[j] = 0.0;  // exact in exact arithmetic; keep w_C at 0
  }

  const BoxedLcp& lcp_;
  const DantzigOptions& o_;
  const int n_;
  MatX A_;
  VecX x_, w_, lo_, hi_, dx_, dw_;
  std::vector<RowSet> set_;
  std::vector<int> free_;
};

// One solve with the friction boxes of Baraff's order, then re-solves with the boxes fixed at the
// last normals (dantzig_lcp.h).
LcpResult SolveWithBoxUpdates(const BoxedLcp& lcp, const DantzigOptions& options) {
  LcpResult result = DantzigSolver(lcp, options).Solve();
  if (lcp.findex.empty()) return result;
  // Friction boxes fixed at the last normals: a plain boxed LCP each time.
  BoxedLcp fixed = lcp;
  fixed.findex.clear();
  for (int update = 0; update < options.max_box_updates && result.status == LcpStatus::kInvalid; ++update) {
    EffectiveBounds(lcp, result.x, &fixed.lo, &fixed.hi);
    LcpResult next = DantzigSolver(fixed, options).Solve();
    next.iterations += result.iterations;
    next.violation = LcpViolation(lcp, next.x);
    if (next.status == LcpStatus::kSolved || next.status == LcpStatus::kInvalid) {
      next.status = next.violation <= options.tolerance ? LcpStatus::kSolved : LcpStatus::kInvalid;
    }
    result = std::move(next);
  }
  return result;
}

}  // namespace

LcpResult SolveDantzig(const BoxedLcp& lcp, const DantzigOptions& options) {
  if (const std::string error = lcp.Check(); !error.empty()) throw InvalidArgument("dantzig lcp: " + error);
  LcpResult result = SolveWithBoxUpdates(lcp, options);
  if (result.status == LcpStatus::kSolved || options.cycling_cfm <= 0.0 || lcp.size() == 0) return result;
  // The retry on A + eps I (dantzig_lcp.h), judged on the original problem by Solve().
  DantzigOptions regularized = options;
  regularized.cfm = options.cfm + options.cycling_cfm * std::max(lcp.A.diagonal().maxCoeff(), 0.0);
  LcpResult again = SolveWithBoxUpdates(lcp, regularized);
  again.iterations += result.iterations;
  return again.status == LcpStatus::kSolved ? again : result;
}

}  // namespace arena
