// Sums 3x3 Hessian blocks with the same (row point, column point) before they reach the
// incremental-potential sink, which maps each block to the bodies' twists with its own 6x6
// product (models/incremental_potential/step_energy.cc). One body pair of the billiards writes thousands of blocks
// on a few hundred distinct point pairs: every exact triangle pair (Sec. 4) writes all 36 of
// its vertex pairs, and a vertex belongs to many such pairs and to many friction pairs (App.
// A.3). Summing first does the same arithmetic on the blocks and leaves one product per
// distinct pair. Points are numbered [0, points) by the caller (PairPoints for a body pair).
#pragma once

#include <vector>

#include "models/longrange/long_range_potential.h"

namespace arena::longrange {

class PointBlockSum {
 public:
  /// Empties the sum for points numbered [0, points).
  void Reset(int points);
  void Add(int row, int col, const Mat3& block) {
    int& slot = slot_[static_cast<std::size_t>(row) * points_ + col];
    if (slot < 0) {
      slot = static_cast<int>(blocks_.size());
      blocks_.push_back({row, col, block});
    } else {
      blocks_[slot].block += block;
    }
  }
  /// The distinct (row, col) pairs with their summed blocks, in first-seen order.
  const std::vector<HessianBlock>& blocks() const { return blocks_; }

 private:
  int points_ = 0;
  std::vector<int> slot_;  // points^2: index into blocks_, or -1
  std::vector<HessianBlock> blocks_;
};

}  // namespace arena::longrange
