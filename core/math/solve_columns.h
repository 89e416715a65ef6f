// Solving with a right-hand side that may have no columns (a scene without controls or design
// parameters gives its d/du and d/dp blocks zero columns).
#pragma once

#include "core/math/types.h"

namespace arena {

/// decomposition.solve(rhs), or an empty (decomposition.cols() x 0) result when rhs has no
/// columns: Eigen's triangular solves bind references to the right-hand side's data, which is
/// null for an empty matrix (undefined behaviour; UBSan reports it).
template <class Decomposition, class Rhs>
MatX SolveColumns(const Decomposition& decomposition, const Rhs& rhs) {
  if (rhs.cols() == 0) return MatX(decomposition.cols(), 0);
  return decomposition.solve(rhs);
}

}  // namespace arena
