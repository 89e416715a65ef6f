// One planar time step of silico as a complementarity problem for the interior-point solver
// (seed 000, Silico eq. 20 with the 2D body dynamics of the paper's code, digest 2.2-2.3).
//
// Unknowns: y = [v25 of every dynamic body (x-dot, y-dot, theta-dot; world) | per pair: c, alpha,
// shape auxiliaries], z and s = per pair [gamma, psi, beta1, beta2, lambda_alpha, lambda_P,
// lambda_C] and their slacks. The pose at the end of the step is p3 = p2 + dt v25.
// Body rows (impulse balance, Silico 2D body):
//   M (v25 - v15) - dt (m g + f_act) - sum of contact impulses = 0,   M = diag(m, m, J).
// Actuators on a body's planar joint: torque actuators add gear u along the joint's DOF
// (dof 0 = rotation, 1/2 = body x/y, rotated with the pose at the start of the step); PD
// actuators are position control, implicit at the end of the step on the world coordinate of
// the DOF (dof 0 = theta, 1 = x, 2 = y): kp (u - p3) - kd v25, which is the paper's
// position-controlled fingertip when kd = 0.
//
// Parameters theta (for the implicit-function derivatives): [p2 of every body (3) | v15 of
// every body (3) | u].
#pragma once

#include <vector>

#include "core/scene/scene.h"
#include "models/silico/planar_contact.h"
#include "solvers/interior_point.h"

namespace arena::silico {

struct PlanarBody {
  int body = 0;         // scene body index
  int idx_q = 0;        // (x, y, theta) in the scene's q
  int idx_v = 0;        // (omega, v_x, v_y) in the scene's v (body frame)
  double mass = 0.0;
  double inertia = 0.0;
};

class PlanarProblem final : public ComplementarityProblem {
 public:
  /// Throws Unsupported when the scene is not planar or a pair cannot be formulated (a
  /// half-plane on a moving body, two fixed shapes, a body whose COM is off its origin).
  explicit PlanarProblem(const Scene& scene);

  const std::vector<PlanarBody>& bodies() const { return bodies_; }
  const std::vector<PlanarPair>& pairs() const { return pairs_; }
  int num_parameters() const { return 6 * static_cast<int>(bodies_.size()) + nu_; }

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

 private:
  // Fills the pair's local input vector (doubles).
  void LocalInput(const PlanarPair& pair, const VecX& y, const VecX& z, double* in) const;
  // Global residual row of a pair's local output r (-1: the impulse on a fixed child).
  int RowOf(const PlanarPair& pair, int r) const;
  // Body-row actuation term dt f_act and its derivatives.
  void AddActuation(const VecX& y, VecX* F, MatX* J, MatX* dF_dtheta) const;

  std::vector<PlanarBody> bodies_;
  std::vector<PlanarPair> pairs_;
  std::vector<Actuator> actuators_;
  std::vector<int> actuator_body_;  // dynamic-body slot of each actuator
  Vec2 gravity_ = Vec2::Zero();
  ConeSpec cone_;
  int ny_ = 0, nz_ = 0, nu_ = 0;

  double dt_ = 0.01;
  VecX p2_, v15_, u_;
  MatX local_;  // scratch: one pair's local Jacobian
};

}  // namespace arena::silico
