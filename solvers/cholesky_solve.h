// The symmetric positive-definite solves of the Newton solver (solvers/projected_newton.h),
// selectable: Eigen's dense LLT (the default) or its sparse simplicial LLT on the matrix's
// nonzero pattern with approximate minimum degree ordering, for incremental potentials whose
// Hessians are block-sparse (many bodies, few of them touching; a tower of 50 boxes has 300
// DOF). Below a hundred DOF the dense one is as fast and the choice does not matter.
#pragma once

#include <string>
#include <string_view>

#include "core/math/types.h"

namespace arena {

enum class CholeskySolver { kDense, kSparse };
std::string_view ToString(CholeskySolver v);
bool FromString(std::string_view text, CholeskySolver* v);
std::string EnumValues(CholeskySolver);

/// Solves A x = b for a symmetric A (its lower triangle is read). False when A is not positive
/// definite to round-off (the factorization fails) or x is not finite.
bool CholeskySolve(const MatX& A, const VecX& b, CholeskySolver kind, VecX* x);

}  // namespace arena
