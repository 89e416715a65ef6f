// The standalone collision-detection program of two planar shapes (seed 000, Silico Sec. IV-A,
// problem P14): min alpha s.t. both shapes scaled by alpha about their reference points contain
// a common point p. alpha* - 1 is the P-SDF: < 0 overlapping, 0 touching, > 0 apart. Solved
// with the same interior-point solver at a small relaxation. Used by
//   - the bilevel baseline (models/bilevel), which nests this solve inside its contact solve,
//   - the box_drop metric "P-SDF violation" (the paper measured max(0, -phi) this way),
//   - the tests of paper eq. 19 (face-to-face contact makes this program's KKT Jacobian rank
//     deficient, the single-level one is not).
#pragma once

#include "models/silico/planar_contact.h"
#include "solvers/interior_point.h"

namespace arena::silico {

/// KKT system of P14 for one pair at fixed poses. Unknowns y = (c, alpha, aux_P, aux_C),
/// z = s-partners of (alpha >= 0, g_P >= 0, g_C >= 0). Parameters theta = (x_P, x_C).
class CollisionProgram final : public ComplementarityProblem {
 public:
  explicit CollisionProgram(PlanarPair pair);

  void SetPoses(const Vec3& x_p, const Vec3& x_c);
  const PlanarPair& pair() const { return pair_; }
  const Vec3& x_p() const { return x_p_; }
  const Vec3& x_c() const { return x_c_; }

  int num_primals() const override { return pair_.num_primals(); }
  const ConeSpec& cone() const override { return cone_; }
  bool Evaluate(const VecX& y, const VecX& z, VecX* residual, MatX* jacobian) override;
  void ParameterJacobian(const VecX& y, const VecX& z, MatX* dF_dtheta) override;

  /// Contact point (world) and parent normal n_P = dg_P/dp^T lambda_P (unnormalised; at the
  /// solution it equals d alpha / d(x_P, y_P), the optimal-value sensitivity, eq. 15).
  void PointAndNormal(const VecX& y, const VecX& z, Vec2* point, Vec2* normal) const;

 private:
  template <class T>
  void Residual(const T* x, const T* y, const T* z, T* out) const;

  PlanarPair pair_;
  ConeSpec cone_;
  Vec3 x_p_ = Vec3::Zero(), x_c_ = Vec3::Zero();
};

struct CollisionResult {
  InteriorPointReport report;
  double alpha = 0.0;
  double phi = 0.0;              // alpha - 1
  Vec2 point = Vec2::Zero();     // world contact point
  Vec2 normal = Vec2::Zero();    // n_P (unnormalised)
  // d(phi)/d(x_P, x_C) and d(point)/d(x_P, x_C), filled when sensitivities were requested.
  Eigen::Matrix<double, 1, 6> dphi_dx = Eigen::Matrix<double, 1, 6>::Zero();
  Eigen::Matrix<double, 2, 6> dpoint_dx = Eigen::Matrix<double, 2, 6>::Zero();
};

/// Solves P14 from a cold start (the paper's inner solves are cold) at the solver's options.
CollisionResult SolveCollision(CollisionProgram& program, InteriorPointSolver& solver,
                               bool sensitivities = false);

/// The paper's measurement of a P-SDF: relaxation 1e-4, tolerance 1e-5, 20 iterations, cold.
InteriorPointOptions PsdfSolverOptions();

}  // namespace arena::silico
