// One planar time step of silico as a complementarity problem for the interior-point solver
// (seed 000, Silico eq. 20 with the 2D body dynamics of the authors' released code).
//
// Unknowns: y = [v25 of every dynamic body (x-dot, y-dot, theta-dot; world) | per pair: c, alpha,
// shape auxiliaries], z and s = per pair [gamma, psi, beta1, beta2, lambda_alpha, lambda_P,
// lambda_C] and their slacks. The pose at the end of the step is p3 = p2 + dt v25.
// Body rows: models/silico/planar_body_rows.h (impulse balance, gravity, actuators).
//
// Parameters theta (for the implicit-function derivatives): [p2 of every body (3) | v15 of
// every body (3) | u].
#pragma once

#include <vector>

#include "core/scene/scene.h"
#include "models/silico/planar_body_rows.h"
#include "models/silico/planar_contact.h"
#include "solvers/interior_point.h"

namespace arena::silico {

class PlanarProblem final : public ComplementarityProblem {
 public:
  /// Throws Unsupported when the scene is not planar or a pair cannot be formulated (a
  /// half-plane on a moving body, two fixed shapes, a body whose COM is off its origin).
  explicit PlanarProblem(const Scene& scene);

  const std::vector<PlanarBody>& bodies() const { return rows_.bodies(); }
  const PlanarBodyRows& body_rows() const { return rows_; }
  const std::vector<PlanarPair>& pairs() const { return pairs_; }
  int num_parameters() const { return 6 * rows_.num_bodies() + nu_; }

  /// The step's data: p2 and v15 per body in world coordinates, stacked (3 per body), and u.
  void SetStep(double dt, const VecX& p2, const VecX& v15, const VecX& u);

  int num_primals() const override { return ny_; }
  const ConeSpec& cone() const override { return cone_; }
  bool Evaluate(const VecX& y, const VecX& z, VecX* residual, MatX* jacobian) override;
  void ParameterJacobian(const VecX& y, const VecX& z, MatX* dF_dtheta) override;

  /// Pose p3 = p2 + dt v25 of every body at the primals y (3 per body).
  VecX EndPoses(const VecX& y) const;
  /// Pairs in contact at a solution: the impulse multiplier gamma exceeds its slack, the gap
  /// alpha - 1 (the interior-point active-set rule; with gamma s = rho, gap < sqrt(rho)).
  int ActiveContacts(const VecX& z, const VecX& s) const;
  /// Pair i's contact at a solution: its contact point, the parent's unit normal (into the
  /// parent) and the impulse on the parent, world xy.
  void PairContact(const VecX& y, const VecX& z, int i, Vec2* point, Vec2* normal, Vec2* impulse_on_parent) const;

 private:
  // Fills the pair's local input vector (doubles).
  void LocalInput(const PlanarPair& pair, const VecX& y, const VecX& z, double* in) const;

  PlanarBodyRows rows_;
  std::vector<PlanarPair> pairs_;
  ConeSpec cone_;
  int ny_ = 0, nz_ = 0, nu_ = 0;

  double dt_ = 0.01;
  VecX p2_, v15_, u_;
  VecX local_;  // scratch: one pair's local Jacobian (column-major), sized for the largest pair
};

}  // namespace arena::silico
