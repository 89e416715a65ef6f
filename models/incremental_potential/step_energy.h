// The incremental potential of one time step over the next configuration q (seed 003 Sec. IV-A,
// seed 004 Sec. 3.1: "x^{t+1} = argmin I(x, x^t, x^{t-1}) + P(x) + D(x, x^t)"), for free bodies
// and articulated trees alike, in the joint coordinates of the Scene:
//
//   inertia     sum_k 1/(2 dt^2) tr(D_k W_k D_k^T), D_k = T_k(q) - 2 T_k(q^t) + T_k(q^{t-1}),
//               W_k = [S P; P^T M] the body's mass moments (its vertices' lumped masses m_v =
//               M / |V| as the papers do, or the exact rigid-body inertia); q^{t-1} = q^t (+) (-dt v^t)
//   gravity     -g . (R_k P_k + p_k M_k)
//   armature    a / (2 dt^2) (theta - theta^t - dt v^t)^2 on 1-DOF joints
//   joints      springs k/2 (theta - theta_ref)^2, damping c/(2 dt) (theta - theta^t)^2
//   actuators   torque: -gear u (theta - theta^t); PD target: kp/2 (theta - u)^2 + kd/(2 dt)
//               (theta - theta^t)^2; velocity target: kd/(2 dt) (theta - theta^t - dt u)^2
//               (1-DOF joints; their forces are Scene's at the new state)
//   limits      a C2 barrier kappa_l b(d) on the distance d to each finite joint limit, with
//               IPC's clamped log b(d) = -(d - h)^2 ln(d / h) for d < h, 0 beyond
//   contact     the model's ContactPotential of the collider meshes' world vertices
//
// Derivatives are taken in the tangent coordinates of q (q (+) eps, eps = 0) through the body
// poses (models/incremental_potential/pose_derivatives.h, models/incremental_potential/tangent_chain.h). v+ = (q+ (-) q^t) / dt.
#pragma once

#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "core/scene/scene.h"
#include "models/incremental_potential/contact_potential.h"
#include "models/incremental_potential/pose_derivatives.h"
#include "models/incremental_potential/tangent_chain.h"

namespace arena {

struct StepEnergyOptions {
  double timestep = 0.01;           // s
  bool lumped_mass = true;          // vertex-lumped masses (the papers); false: exact rigid inertia
  double limit_width = 1e-2;        // h: the limit barrier acts within this distance (rad or m)
  double limit_stiffness = 1e3;     // kappa_l (N m or N)

  /// "" when valid.
  std::string Validate() const;
};

class StepEnergy {
 public:
  /// `contact` may be null (no contact potential); it must outlive the energy. Throws
  /// Unsupported for an actuator on a joint with more than one DOF.
  StepEnergy(std::shared_ptr<const Scene> scene, std::vector<ColliderMesh> meshes, ContactPotential* contact,
             const StepEnergyOptions& options);

  const Scene& scene() const { return *scene_; }
  const std::vector<ColliderMesh>& meshes() const { return meshes_; }
  const StepEnergyOptions& options() const { return options_; }
  /// Whether some DOF carries body k (the world and bodies welded to it do not move).
  bool Moves(int k) const { return moves_.at(k); }

  /// The step from `start` under `control` (u of size nu, or empty for zero).
  void Begin(const State& start, const Control& control);
  const State& start() const { return start_; }

  /// E(q); with `gradient` its gradient in tangent coordinates at q; with `hessian` its Hessian
  /// there (contact terms projected to PSD per term when `project`). +inf when infeasible.
  double Evaluate(const VecX& q, VecX* gradient, MatX* hessian, bool project);
  /// The world positions of every mesh vertex at q.
  void WorldVertices(const VecX& q, ContactConfiguration* out);
  /// The largest alpha in (0, 1] keeping q (+) alpha d inside every finite joint limit.
  double LimitMaxStep(const VecX& q, const VecX& d) const;

  /// Wall-clock seconds spent in the contact potential (its BeginStep and every Evaluate) since
  /// this energy was built: the potential's share of a step (seed 003 Table II).
  double contact_seconds() const { return contact_seconds_; }
  /// Evaluate calls since this energy was built: energy alone, and with derivatives.
  long energy_evaluations() const { return energy_evaluations_; }
  long derivative_evaluations() const { return derivative_evaluations_; }

  /// Mixed second derivatives at q for the implicit function theorem: d(gradient)/d(q^t) (q^t
  /// perturbed in its tangent space), d/d(v^t) and d/du (nv x nv, nv x nv, nv x nu).
  void InputDerivatives(const VecX& q, MatX* dg_dq, MatX* dg_dv, MatX* dg_du);

  /// A mesh vertex whose body-frame position is a design parameter (three: x, y, z).
  struct DesignVertex {
    int mesh = 0;
    int vertex = 0;
  };
  /// Moves mesh vertices (body frame) and recomputes the lumped mass moments they carry. The
  /// contact potential reads vertices through the configurations, so it follows.
  void SetVertices(const std::vector<DesignVertex>& which, const std::vector<Vec3>& local);
  /// d(gradient)/dp at q for the design vertices (nv x 3 n; x, y, z per vertex, in order): the
  /// contact terms through their exact Hessian, their gradient (the point moves on its body) and
  /// the lagged terms' start (models/incremental_potential/step_energy_design.cc), and the lumped inertia and
  /// gravity. Call after Begin, with q the step's minimiser.
  void DesignJacobian(const VecX& q, const std::vector<DesignVertex>& design, MatX* dg_dp);
  /// d(gradient)/da at q for the joint placements' translations a of these bodies (in the
  /// parent's frame; nv x 3 n, x, y, z per body): each moves its body's subtree at the step's end
  /// (TangentChain::AddSubtreeColumn, the exact Hessian), start and the step before
  /// (models/incremental_potential/step_energy_attachment.cc). Call after Begin, with q the step's minimiser; an
  /// exact Evaluate at the same q just before (as Derivatives makes) is reused.
  void AttachmentJacobian(const VecX& q, const std::vector<int>& bodies, MatX* dg_da);

 private:
  struct BodyMoments {
    Eigen::Matrix4d W = Eigen::Matrix4d::Zero();  // [S P; P^T M] / dt^2 ... without the dt^2
    Eigen::Vector4d m = Eigen::Vector4d::Zero();  // [P; M]
    double vertex_mass = 0.0;  // m_v when the moments are lumped at the vertices, else 0
  };
  // moments_ and dynamic_ from the bodies' masses and (lumped) the meshes' vertices.
  void ComputeMoments();
  // Adds the 1-DOF joint terms (armature, springs, damping, actuators, limits).
  double JointTerms(const VecX& q, VecX* g, MatX* H) const;
  double LimitBarrier(double d, double* d1, double* d2) const;
  // The lagged contact terms' mixed twist blocks d2E / dxi+_k dxi^t_l per (end body k, start body
  // l) at q (leaves chain_ at q).
  std::map<std::pair<int, int>, Mat6> LaggedTwistBlocks(const VecX& q);

  std::shared_ptr<const Scene> scene_;
  double contact_seconds_ = 0.0;
  long energy_evaluations_ = 0, derivative_evaluations_ = 0;
  std::vector<ColliderMesh> meshes_;
  ContactPotential* contact_;
  StepEnergyOptions options_;
  std::vector<BodyMoments> moments_;
  std::vector<int> dynamic_;   // bodies with mass
  std::vector<bool> moves_;    // bodies carried by at least one DOF

  // The step.
  State start_;
  VecX u_;                     // clamped controls
  std::vector<bool> clamped_;  // the control was outside its range
  VecX q_prev_;                // q^{t-1} = q^t (+) (-dt v^t)
  std::vector<Mat34> target_;  // 2 X^t - X^{t-1} per body

  // Workspace.
  VecX exact_blocks_q_;  // the q at which G_ and blocks_ hold the exact derivatives (empty: none)
  TangentChain chain_;
  std::vector<Mat34> A_;
  std::vector<Vec6> G_;
  BodyHessian blocks_;
  ContactConfiguration vertices_;
  ContactConfiguration start_vertices_;
  // The step's start has crossing surfaces or nested meshes (models/incremental_potential/mesh_intersection.h): a
  // potential of distances between primitives may stay finite there (IPC's for crossing
  // surfaces, longrange's for a mesh inside another), so the core makes the whole step's energy
  // infinite and Newton reports an infeasible start.
  bool start_intersecting_ = false;
};

}  // namespace arena
