// One spatial (3D) time step of silico as a complementarity problem (seed 000, Silico eq. 20,
// 3D body dynamics with Dojo's discrete Euler-Lagrange rotation update).
//
// Unknowns: y = [per free body: v25 (world linear midpoint velocity, 3), omega25 (body-frame
// angular midpoint velocity, 3) | per pair: c (3), alpha, aux_P, aux_C (, psi for the soc
// friction cone)]; z and s = [per pair: the orthant duals | per pair: the SOC block (soc friction
// only)] (layout in spatial_contact.h).
// End of the step: p3 = p2 + dt v25, q3 = q2 (x) (dt/2)[sqrt(4/dt^2 - |omega25|^2); omega25].
// Body rows:
//   translational  m (v25 - v15) - dt m g - sum f = 0                      (world, impulses)
//   rotational     A(omega25) - B(omega15) - sum tau = 0,
//                  A(w) = (dt/2) [J w s(w) + w x J w], B(w) = (dt/2) [J w s(w) - w x J w],
//                  s(w) = sqrt(4/dt^2 - |w|^2)
// Derivation of the scaling: Dojo's rotational DEL is J w25 s(w25) + w25 x J w25 - J w15 s(w15)
// + w15 x J w15 - 2 tau_force = 0 with tau_force a torque (N m). For small w, s -> 2/dt and the
// row becomes (2/dt) J (w25 - w15) - 2 tau_force = 0, i.e. J (w25 - w15) = dt tau_force: the
// angular-impulse balance. Multiplying by dt/2 gives the row above, in units of angular impulse
// like the translational rows, so tau here is the contact torque IMPULSE about the COM (no
// further factor; the paper's code was off by 2/dt). A(w) is the body-frame discrete momentum at
// q2 after the step and B(w) the one at q3 before the next: R(dq) B(w) = A(w) with dq the
// quaternion increment, so without contact the world angular momentum R(q3) B(omega25) is
// exactly conserved (tests/models/silico/spatial_test.cc). tau is expressed in the body frame
// at q3 (where the contact velocities are measured, so impulse and velocity stay dual);
// |omega|^2 is clipped at 3.9 / dt^2 inside s (Dojo's guard).
#pragma once

#include <string>
#include <vector>

#include "core/scene/scene.h"
#include "models/silico/spatial_contact.h"
#include "solvers/interior_point.h"

namespace arena::silico {

struct SpatialBody {
  int body = 0;    // scene body index
  int idx_q = 0;   // (p (3), quaternion w x y z) in the scene's q
  int idx_v = 0;   // (omega_B, v_B) in the scene's v
  double mass = 0.0;
  Mat3 inertia = Mat3::Identity();  // about the COM (= body origin), body frame
};

FrictionCone FrictionConeFromString(const std::string& name);

class SpatialProblem final : public ComplementarityProblem {
 public:
  /// Throws Unsupported unless every body is on a free joint to the world (or fixed), its COM
  /// at the body origin, every collider a supported 3D shape, and the scene has no actuators.
  SpatialProblem(const Scene& scene, FrictionCone cone);

  const std::vector<SpatialBody>& bodies() const { return bodies_; }
  const std::vector<SpatialPair>& pairs() const { return pairs_; }

  /// Start of the step: per body p2 (world), q2, v15 (world linear) and omega15 (body frame).
  void SetStep(double dt, const std::vector<Vec3>& p2, const std::vector<Quat>& q2,
               const std::vector<Vec3>& v15, const std::vector<Vec3>& w15);

  int num_primals() const override { return ny_; }
  const ConeSpec& cone() const override { return cone_; }
  bool Evaluate(const VecX& y, const VecX& z, VecX* residual, MatX* jacobian) override;
  /// Cold start: zero velocities and contact offsets, alpha = 1 (touching).
  void InitialPrimals(VecX* y) override;

  /// Parameters theta of the step, 12 per body k at 12 k: dp2 (world), dtheta2 (body frame:
  /// q2 (x) exp(dtheta2)), v15 (world), omega15 (body frame). Step derivatives (Sec. V-D).
  int num_parameters() const { return 12 * static_cast<int>(bodies_.size()); }
  void ParameterJacobian(const VecX& y, const VecX& z, MatX* dF_dtheta) override;

  /// End pose of body k at the primals y.
  void EndPose(const VecX& y, int k, Vec3* p3, Quat* q3) const;
  /// Pairs in contact at a solution (gamma > its slack alpha - 1).
  int ActiveContacts(const VecX& z, const VecX& s) const;
  /// The pair's start data at the current step.
  SpatialStart Start(const SpatialPair& pair) const;
  /// Pair i's contact at a solution: its contact point p, the parent's unit normal n_P (towards
  /// the parent) and the impulse on the parent (world).
  void PairContact(const VecX& y, const VecX& z, int i, Vec3* point, Vec3* normal, Vec3* impulse_on_parent) const;

 private:
  void LocalInput(const SpatialPair& pair, const VecX& y, const VecX& z, double* in) const;
  int RowOf(const SpatialPair& pair, int r) const;  // -1: impulse on a fixed child
  int ColOf(const SpatialPair& pair, int k) const;  // -1: a fixed child's velocity

  std::vector<SpatialBody> bodies_;
  std::vector<SpatialPair> pairs_;
  Vec3 gravity_ = Vec3::Zero();
  ConeSpec cone_;
  int ny_ = 0, nz_orthant_ = 0;

  double dt_ = 0.01;
  std::vector<Vec3> p2_, v15_, w15_;
  std::vector<Quat> q2_;
  // Per pair: the global row of each local output (-1: a fixed child's impulse) and the global
  // column of each local Jacobian column; the local Jacobian's storage.
  std::vector<std::vector<int>> local_rows_, local_cols_;
  VecX local_;
};

/// The standalone 3D collision program (Sec. IV-A, P14) of a pair at fixed poses: unknowns
/// y = (c, alpha, aux_P, aux_C), z = (lambda_alpha, lambda_P, lambda_C). For a floor or a
/// world-fixed child pass the identity as the child pose (its placement is in the pair).
class SpatialCollisionProgram final : public ComplementarityProblem {
 public:
  explicit SpatialCollisionProgram(SpatialPair pair);
  void SetPoses(const Vec3& p_p, const Quat& q_p, const Vec3& p_c, const Quat& q_c);
  int num_primals() const override { return 4 + pair_.num_aux(); }
  const ConeSpec& cone() const override { return cone_; }
  bool Evaluate(const VecX& y, const VecX& z, VecX* residual, MatX* jacobian) override;
  /// Cold start at alpha = 1 (alpha = 0 puts p at a round shape's centre, where its
  /// constraint's gradient vanishes and the Newton system can go singular).
  void InitialPrimals(VecX* y) override;

 private:
  template <class T>
  void Residual(const T* yz, T* out) const;
  SpatialPair pair_;
  ConeSpec cone_;
  Vec3 p_p_ = Vec3::Zero(), p_c_ = Vec3::Zero();
  Mat3 R_p_ = Mat3::Identity(), R_c_ = Mat3::Identity();
};

}  // namespace arena::silico
