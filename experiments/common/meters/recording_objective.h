// An Objective that records each evaluation's loss, gradient norm and iterate, in order: with
// Adam (one evaluation per iteration) record i belongs to the optimiser's iteration i. The
// optimisation experiments (billiards, chain_reach) write their loss-vs-iteration rows from it.
#pragma once

#include <cmath>
#include <cstdint>
#include <limits>
#include <utility>
#include <vector>

#include "solvers/objective.h"

namespace arena {

class RecordingObjective final : public Objective {
 public:
  struct Record {
    double loss = 0.0;
    bool zero_gradient = false;  // every entry exactly 0
    double gradient_norm = std::numeric_limits<double>::quiet_NaN();
    VecX x;
  };
  explicit RecordingObjective(Objective& inner) : inner_(inner) {}
  int dimension() const override { return inner_.dimension(); }
  double Evaluate(const VecX& x, VecX* gradient) override {
    Record r;
    r.x = x;
    r.loss = inner_.Evaluate(x, gradient);
    if (gradient != nullptr && std::isfinite(r.loss)) {
      r.zero_gradient = gradient->isZero(0.0);
      r.gradient_norm = gradient->norm();
    }
    records_.push_back(std::move(r));
    return records_.back().loss;
  }
  // The inner objective's box, so that an optimiser of the recording keeps its bounds.
  VecX lower() const override { return inner_.lower(); }
  VecX upper() const override { return inner_.upper(); }
  std::int64_t evaluations() const override { return inner_.evaluations(); }
  std::int64_t gradient_evaluations() const override { return inner_.gradient_evaluations(); }
  const std::vector<Record>& records() const { return records_; }

 private:
  Objective& inner_;
  std::vector<Record> records_;
};

}  // namespace arena
