// Central differences of a complementarity problem's residual, for the tests of silico's step
// Jacobians (planar and spatial problems): a column against the difference of two residuals, and
// every column of dF/d(y, z) against differences of Evaluate.
#pragma once

#include <gtest/gtest.h>

#include <cmath>
#include <string>

#include "solvers/interior_point.h"

namespace arena::silico_testing {

/// `analytic` against (plus - minus) / 2h, each entry to 1e-6 (1 + |numeric|).
inline void ExpectColumn(const VecX& analytic, const VecX& plus, const VecX& minus, double h, const std::string& what,
                         int j) {
  const VecX numeric = (plus - minus) / (2.0 * h);
  for (int i = 0; i < numeric.size(); ++i) {
    EXPECT_NEAR(analytic[i], numeric[i], 1e-6 * (1.0 + std::abs(numeric[i]))) << what << " row " << i << " col " << j;
  }
}

/// J (Evaluate's dF/d(y, z) at y, z) column by column against central differences of Evaluate.
inline void ExpectYzColumns(ComplementarityProblem& problem, const VecX& y, const VecX& z, const MatX& J, double h) {
  const int ny = static_cast<int>(y.size()), nz = static_cast<int>(z.size());
  VecX plus, minus;
  for (int j = 0; j < ny + nz; ++j) {
    VecX y_shift = y, z_shift = z;
    double& w = j < ny ? y_shift[j] : z_shift[j - ny];
    const double w0 = w;
    w = w0 + h;
    problem.Evaluate(y_shift, z_shift, &plus, nullptr);
    w = w0 - h;
    problem.Evaluate(y_shift, z_shift, &minus, nullptr);
    ExpectColumn(J.col(j), plus, minus, h, "dF/d(y, z)", j);
  }
}

}  // namespace arena::silico_testing
