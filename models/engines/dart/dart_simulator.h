// `dart`: a Simulator backed by DART 6.12 (Debian libdart-dev), the engine whose finite-difference
// step Jacobians are the baseline of Nimble's Tables II and III (Werling, Omens, Lee, Exarchos,
// Liu, "Fast and Feature-Complete Differentiable Physics for Articulated Rigid Bodies with
// Contact", RSS 2021; seed 002 Sec. VII-A and App. D).
//
// One step is DART's World::step: forward dynamics and v* = v + dt a (joint springs and dampers
// implicit), collision detection at q (FCL or DART's own detector), one boxed LCP per
// constrained group for the contact and joint-limit impulses (Dantzig, with DART's PGS
// fallback, or PGS alone), v+ = v* + M^-1 J^T lambda, then q+ from v+ on each joint.
// Contact is DART's default rigid LCP: friction a four-sided box (|f_t1|, |f_t2| <= mu f_n, mu
// the smaller coefficient of the pair), restitution the product of the pair's coefficients,
// penetration corrected by ERP 0.01 capped at 1e-3 m/s (DART's static defaults).
//
// The scene becomes DART Skeletons (scene_to_skeleton.h); our State is written into the joints
// before and read back after each step, so the engine keeps no state between steps. Step
// derivatives are finite differences of Step on the configuration manifold (central, forward
// or Ridders): what Nimble times as its baseline.
//
// A wrapped engine: the DART World holds both the model and the workspace, so one instance
// owns one World (built in the constructor) and serves one thread.
#pragma once

#include <memory>
#include <string>
#include <string_view>

#include "core/common/options.h"
#include "models/option_ranges.h"
#include "models/simulator.h"
#include "models/finite_difference_derivatives.h"

namespace dart::collision {
class CollisionResult;
}  // namespace dart::collision

namespace arena {

/// DART's collision detectors available in Debian 12 (ode and bullet are not packaged).
enum class DartCollisionDetector { kFcl, kDart };
std::string_view ToString(DartCollisionDetector detector);
bool FromString(std::string_view text, DartCollisionDetector* detector);
std::string EnumValues(DartCollisionDetector);

/// How FCL sees DART's primitive shapes: tessellated meshes (DART's World default) or FCL's
/// analytic primitives (one contact point per pair except box-box).
enum class DartFclShapes { kMesh, kPrimitive };
std::string_view ToString(DartFclShapes shapes);
bool FromString(std::string_view text, DartFclShapes* shapes);
std::string EnumValues(DartFclShapes);

/// The boxed LCP solver of DART's BoxedLcpConstraintSolver.
enum class DartLcpSolver { kDantzig, kPgs };
std::string_view ToString(DartLcpSolver solver);
bool FromString(std::string_view text, DartLcpSolver* solver);
std::string EnumValues(DartLcpSolver);

struct DartOptions {
  double timestep = 0.001;  // s (DART's default)
  DartCollisionDetector collision_detector = DartCollisionDetector::kFcl;
  DartFclShapes fcl_shapes = DartFclShapes::kMesh;
  DartLcpSolver lcp_solver = DartLcpSolver::kDantzig;
  bool joint_limits = true;
  FdStepOptions fd{.fd_ridders_step = 1e-3};  // Derivatives(): fd_method, fd_step, fd_ridders_step

  template <class V>
  void VisitFields(V&& v) {
    v("timestep", timestep, "step length", "s", kTimestepRange);
    v("collision_detector", collision_detector,
      "fcl (finds mesh contacts) or dart (DART's own: spheres, boxes and half-spaces only)", "");
    v("fcl_shapes", fcl_shapes,
      "fcl: primitives as tessellated meshes (DART's World default) or FCL's analytic primitives", "");
    v("lcp_solver", lcp_solver,
      "dantzig (pivoting, with DART's PGS fallback when it fails) or pgs (projected Gauss-Seidel, "
      "30 sweeps)", "");
    v("joint_limits", joint_limits, "enforce finite revolute / prismatic limits (DART's joint-limit constraint)", "");
    fd.VisitFields(v);
  }
  std::string Validate() const;
};

class DartSimulator final : public SimulatorBase<DartSimulator, DartOptions> {
 public:
  /// Throws InvalidArgument for bad options, Unsupported for a 2D shape, a shape the chosen
  /// detector cannot collide (naming the collider) or a joint with armature.
  DartSimulator(std::shared_ptr<const Scene> scene, const DartOptions& options);
  ~DartSimulator() override;

  static constexpr std::string_view kName = "dart";
  static Capabilities CapabilitiesFor(const DartOptions& options);

  bool ReportsContactPoints() const override { return true; }

 protected:
  StepReport DoStep(State& state, const Control& control) override;
  /// Finite differences of Step (options().Fd()); failed steps give NaN columns.
  void DoDerivatives(const State& state, const Control& control, StepDerivatives* out) override;
  std::vector<ContactPoint> DoContactPoints() override { return step_points_; }

 private:
  struct Engine;  // the DART World and the body/shape maps (DART types stay in the .cc)
  void RecordContactPoints(const dart::collision::CollisionResult& contacts);

  std::unique_ptr<Engine> engine_;
  std::vector<ContactPoint> step_points_;  // the last taken step's contacts and forces
};

}  // namespace arena
