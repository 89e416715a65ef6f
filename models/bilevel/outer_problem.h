// The outer contact problem of the bilevel baseline (seed 000, Silico Sec. IV-B, compared in
// Sec. VI-B; the authors' own planar re-implementation, as their released code has it).
//
// Unlike silico (eq. 20), collision detection is NOT part of the unknowns: every evaluation of
// the outer residual solves, for every contact pair, the standalone collision program P14
// (Sec. IV-A; silico::CollisionProgram) between the two shapes at the candidate end-of-step
// poses, cold, and uses its answer (P-SDF phi = alpha - 1, contact point p, normal n) as data.
//
// Unknowns: y = v25 of every dynamic body (x-dot, y-dot, theta-dot; world, 3 per body),
// z and s = per pair (gamma, psi, beta1, beta2) and their slacks. End pose p3 = p2 + dt v25.
// Rows (F + [0; s] = 0):
//   body      M (v25 - v15) - dt (m g + f_act) - sum of contact impulses        (3 per body)
//   pair      -phi, -(mu gamma - beta1 - beta2), -(v_t + psi), -(-v_t + psi)    (4 per pair)
// Contact impulse on the parent f = t (beta1 - beta2) + n gamma at p (torque (p - x_P) x f), on
// the child -f; t = (n_y, -n_x); v_t = relative tangential velocity at p, parent minus child.
// The normal: against the floor half-plane, the floor's fixed world normal (the authors'
// code hard-codes (0, 1)); otherwise the inner solve's unnormalised n_P = d alpha / d x_P.
// Bodies, pairs and the actuator conventions are silico's (models/silico/planar_problem.h).
#pragma once

#include <vector>

#include "core/scene/scene.h"
#include "models/silico/collision_program.h"
#include "models/silico/planar_problem.h"
#include "solvers/interior_point.h"

namespace arena::bilevel {

/// The inner answer for one pair at one candidate pose (Sec. IV-A P14).
struct InnerContact {
  double phi = 0.0;                 // P-SDF alpha* - 1
  Vec2 point = Vec2::Zero();        // world contact point
  Vec2 normal = Vec2::Zero();       // into the parent; floor: fixed unit normal
  // d phi / d(x_P, x_C), d point / d(x_P, x_C) (IFT of the inner KKT); zero unless requested.
  Eigen::Matrix<double, 1, 6> dphi_dx = Eigen::Matrix<double, 1, 6>::Zero();
  Eigen::Matrix<double, 2, 6> dpoint_dx = Eigen::Matrix<double, 2, 6>::Zero();
  bool converged = false;           // the inner solve met its tolerance
};

/// Counters of the nested solves, reset by ResetStatistics().
struct InnerStatistics {
  int solves = 0;               // inner P14 solves
  int not_converged = 0;        // ... that ended without meeting the inner tolerance
  int iterations = 0;           // their summed iterations
};

class OuterProblem final : public ComplementarityProblem {
 public:
  /// Bodies and pairs as silico::PlanarProblem builds them; throws Unsupported for the scenes
  /// it rejects. `inner_options` are those of every nested P14 solve (made cold).
  OuterProblem(const Scene& scene, const InteriorPointOptions& inner_options);

  const std::vector<silico::PlanarBody>& bodies() const { return rows_.bodies(); }
  const std::vector<silico::PlanarPair>& pairs() const { return pairs_; }

  /// The step's data: p2 and v15 per body in world coordinates, stacked (3 per body), and u.
  void SetStep(double dt, const VecX& p2, const VecX& v15, const VecX& u);

  int num_primals() const override { return 3 * rows_.num_bodies(); }
  const ConeSpec& cone() const override { return cone_; }
  /// F(y, z), nesting one cold inner solve per pair; with `jacobian`, the chain-rule Jacobian
  /// from the inner IFT sensitivities. False when F (or the Jacobian) is not finite.
  bool Evaluate(const VecX& y, const VecX& z, VecX* residual, MatX* jacobian) override;

  /// Pose p3 = p2 + dt v25 of every body at the primals y (3 per body).
  VecX EndPoses(const VecX& y) const;
  /// Solves P14 for every pair at the end poses of y (no sensitivities).
  bool InnerContacts(const VecX& y, std::vector<InnerContact>* contacts);

  const InnerStatistics& statistics() const { return statistics_; }
  void ResetStatistics() { statistics_ = {}; }

 private:
  // Inner solve of pair k at the end poses of y.
  InnerContact SolveInner(int k, const VecX& y, bool sensitivities);
  silico::PlanarBodyRows rows_;  // silico's body rows (impulse balance, gravity, actuators)
  std::vector<silico::PlanarPair> pairs_;
  std::vector<silico::CollisionProgram> programs_;
  ConeSpec cone_;

  InteriorPointSolver inner_;       // shared by all pairs; every solve is cold
  InnerStatistics statistics_;

  double dt_ = 0.01;
  VecX p2_, v15_, u_;
};

}  // namespace arena::bilevel
