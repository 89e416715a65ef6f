#include "models/longrange/point_block_sum.h"

namespace arena::longrange {

void PointBlockSum::Reset(int points) {
  // Only the slots of the last sum are dirty: clear those rather than the whole table.
  for (const HessianBlock& b : blocks_) slot_[static_cast<std::size_t>(b.row) * points_ + b.col] = -1;
  blocks_.clear();
  points_ = points;
  const std::size_t size = static_cast<std::size_t>(points) * points;
  if (slot_.size() < size) slot_.assign(size, -1);
}

}  // namespace arena::longrange
