// `scm`: the Smooth Contact Model of seed 001 (Beker et al.). Every collider is an oriented point
// cloud of plane patches (models/scm/patch_cloud.h); two colliders interact through the smooth
// signed distance functions of their clouds and a softplus spring-damper with smoothed Coulomb
// friction at every point-patch pair, blended by the softmin of the pair's separation field
// (models/scm/smooth_collision.h, eqs. 9-23). The forces are smooth functions of the state, act
// at a distance of a few softplus widths and do not grow with the number of points in contact.
// Forward dynamics (eq. 24's inverse) with ABA, integrated by semi-implicit Euler or RK4 (the two
// integrators of seed 001's Table I, MuJoCo's meaning of both). Step derivatives are exact: the
// contact wrenches by forward-mode AD, the dynamics by the analytical ABA derivatives, chained
// through the integrator's stages.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "core/common/options.h"
#include "core/multibody/data.h"
#include "models/option_ranges.h"
#include "models/scm/contact_law.h"
#include "models/scm/patch_cloud.h"
#include "models/scm/smooth_collision.h"
#include "models/simulator.h"

#include <tbb/task_arena.h>

namespace arena {

enum class ScmIntegrator { kEuler, kRk4 };
std::string_view ToString(ScmIntegrator v);
bool FromString(std::string_view text, ScmIntegrator* v);
std::string EnumValues(ScmIntegrator);

namespace scm {
std::string_view ToString(DampingShape v);
bool FromString(std::string_view text, DampingShape* v);
std::string EnumValues(DampingShape);
}  // namespace scm

// Seed 001 gives none of its contact parameters; these defaults are guesses for 0.1-1 m objects
// (docs/deviations.md, "scm").
struct ScmOptions {
  double timestep = 0.002;                // s (seed 001's finest, Table I)
  ScmIntegrator integrator = ScmIntegrator::kEuler;
  double stiffness = 1e4;                 // k, N/m
  double dissipation_velocity = 0.1;      // v_d, m/s
  double stiction_velocity = 0.05;        // v_s, m/s
  double softplus_width = 1e-3;           // eps3, m
  double ssdf_temperature = 0.0;          // eps1, m^2; 0: (patch_size / 4)^2
  double separation_temperature = 1e-3;   // eps2, m
  double patch_size = 0.05;               // m, the largest extent of a patch
  scm::DampingShape damping_shape = scm::DampingShape::kC1;
  bool skip_small_weights = true;         // skip softmax terms below e^-36 of the largest
  bool skip_out_of_reach = true;          // with it: skip pairs whose forces lie below e^-36 k eps3
  int threads = 1;                        // TBB threads over a pair's points; 0: every core

  template <class V>
  void VisitFields(V&& v) {
    v("timestep", timestep, "step length", "s", kTimestepRange);
    v("integrator", integrator, "euler (semi-implicit) or rk4, each as MuJoCo's (seed 001 Table I)", "");
    v("stiffness", stiffness, "contact spring k of eq. 15 (the whole pair's, the weights sum to one)", "N/m",
      Closed(1e-3, 1e9));
    v("dissipation_velocity", dissipation_velocity, "v_d of the damping shape d(v_n / v_d), eq. 17", "m/s",
      Closed(1e-6, 1e3));
    v("stiction_velocity", stiction_velocity, "v_s of the smoothed Coulomb friction, eq. 18", "m/s", Closed(1e-9, 1e3));
    v("softplus_width", softplus_width, "eps3 of the softplus spring s+(-phi): how far the force reaches", "m",
      Closed(1e-9, 1.0));
    v("ssdf_temperature", ssdf_temperature, "eps1 of the SSDF's softmax over squared distances; 0: (patch_size / 4)^2",
      "m^2", ZeroOr(Closed(1e-12, 1.0)));
    v("separation_temperature", separation_temperature, "eps2 of the softmin over the pair's separation field", "m",
      Closed(1e-9, 1.0));
    v("patch_size", patch_size, "largest extent of a patch of the oriented point clouds", "m", Closed(1e-4, 10.0));
    v("damping_shape", damping_shape, "c1 (the paper's d(s)) or c2 (a quintic middle piece: a C2 step)", "");
    v("skip_small_weights", skip_small_weights,
      "skip the softmax terms below e^-36 of the largest (their sum is below round-off; false: every point-patch pair)", "");
    v("skip_out_of_reach", skip_out_of_reach,
      "with skip_small_weights: skip a pair whose every point-plane distance a k-d tree bound puts beyond the springs' "
      "reach (its forces below e^-36 k eps3); false computes far pairs too", "");
    v("threads", threads,
      "threads over a pair's points (TBB; 0: every core); the result does not depend on it. Sweeps already run cases in "
      "parallel: keep 1 there", "", Closed(0, 1024));
  }
  std::string Validate() const;
  double SsdfTemperature() const { return ssdf_temperature > 0.0 ? ssdf_temperature : 0.0625 * patch_size * patch_size; }
};

class ScmSimulator final : public SimulatorBase<ScmSimulator, ScmOptions>, public ColliderPoints {
 public:
  /// Throws Unsupported for a collider without a patch cloud, InvalidArgument for bad options.
  ScmSimulator(std::shared_ptr<const Scene> scene, const ScmOptions& options);

  static constexpr std::string_view kName = "scm";
  static Capabilities CapabilitiesFor(const ScmOptions& options);

  bool ReportsContactPoints() const override { return true; }
  /// The softplus spring k eps3 s+(-phi / eps3) of eq. 15 is below e^-10 of its value at touch
  /// 10 eps3 away.
  double contact_reach() const override { return 10.0 * options().softplus_width; }
  /// A spring contact sinks F / k for the stiffness the user chose (scm's quick tpush spring
  /// lets the finger 8.7 mm into the T's stem, 0.5 of its radius): only a body sunk past its
  /// whole bounding radius has gone through.
  double penetration_allowance() const override { return 1.0; }
  /// The pair's one spring of eq. 15 (models/spring_contact_warnings.h).
  std::vector<std::string> OptionWarnings() const override;
  /// Patches of each collider (for tests and figures).
  const scm::PatchCloud& cloud(int collider) const { return clouds_[static_cast<std::size_t>(collider)]; }
  /// Each collider's patches (ColliderPoints).
  const ColliderPoints* collider_points() const override { return this; }
  std::int64_t PointCount(int collider) const override { return cloud(collider).patches.points.rows(); }

  /// Joint accelerations at (q, v) under u with the contact forces (the step's right-hand side);
  /// with `report`, the contact points and the smallest SSDF of this evaluation go there.
  const VecX& Acceleration(const VecX& q, const VecX& v, const Control& u, StepReport* report = nullptr);

 protected:
  StepReport DoStep(State& state, const Control& control) override;
  void DoDerivatives(const State& state, const Control& control, StepDerivatives* out) override;
  std::vector<ContactPoint> DoContactPoints() override { return points_; }

 private:
  struct Pair {
    int a = 0, b = 0;  // collider indices
    scm::ContactLaw law;
  };
  struct AccelerationJacobians {
    VecX a;
    MatX dq, dv, du;
  };
  // Contact wrenches (world, about the origin) of every pair on every body, after
  // ForwardKinematics; with `points`, the separation field's heavy points. Returns min Phi.
  double ContactWrenches(std::vector<Force>* f_ext, std::vector<ContactPoint>* points);
  void Jacobians(const VecX& q, const VecX& v, const Control& u, AccelerationJacobians* out);
  // d(generalised contact force)/d(q, v) at the current kinematics (forward-mode AD per pair).
  void ContactForceJacobians(MatX* dtau_dq, MatX* dtau_dv);

  scm::SoftminSettings softmin_;
  std::vector<scm::PatchCloud> clouds_;
  std::vector<Pair> pairs_;
  std::unique_ptr<tbb::task_arena> arena_;  // threads != 1

  MultibodyData data_;
  std::vector<Force> f_ext_;
  std::vector<ContactPoint> points_;
};

}  // namespace arena
