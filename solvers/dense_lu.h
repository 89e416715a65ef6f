// LU factorization with partial pivoting for the small dense systems of the interior-point
// solver (tens of unknowns). Eigen's PartialPivLU switches to a blocked algorithm above 16
// unknowns, which costs about twice as much at the sizes of a contact step; this unblocked
// right-looking version (Golub & Van Loan, Alg. 3.4.1) has no blocking overhead, and skips the
// updates that multiply an exact zero (a contact step's systems are about 60% zeros), which
// leaves the factors unchanged.
#pragma once

#include <vector>

#include "core/math/types.h"

namespace arena {

class DenseLu {
 public:
  /// Factorizes A (square) in place of a copy. Exact zero pivots are kept (see min_pivot()).
  void Compute(const MatX& A);
  /// The same, taking A's storage when the previous factors had A's size (no copy, no
  /// allocation): *A keeps its size, and its contents are unspecified afterwards.
  void ComputeInPlace(MatX* A);
  /// Solves A x = b for one or many right-hand sides (columns).
  void Solve(const VecX& b, VecX* x) const;  // x may not alias b; no allocation if sized
  MatX Solve(const MatX& B) const;
  /// |U_ii| extremes, to judge singularity.
  double min_pivot() const;
  double max_pivot() const;
  int size() const { return static_cast<int>(lu_.rows()); }

 private:
  void Factorize();                    // lu_ holds A in, L and U out
  void SolveInPlace(double* x) const;  // x: permuted rhs in, solution out

  MatX lu_;                 // L (unit, below the diagonal) and U, column-major
  std::vector<int> perm_;   // row i of P A is row perm_[i] of A
  std::vector<int> rows_;   // scratch: rows of a column's nonzero multipliers
};

}  // namespace arena
