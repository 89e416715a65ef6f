// `mujoco`: MuJoCo 2.2.2 (Todorov, Erez, Tassa, "MuJoCo: A physics engine for model-based
// control", IROS 2012; Debian's libmujoco) behind the Simulator interface, as the reference
// engine the papers' models are compared with.
//
// The Scene is translated once into MJCF (scene_to_mjcf.h) and compiled from memory through
// MuJoCo's virtual file system; the options are then written into mjModel.opt. Model / Data:
// the compiled mjModel is the immutable part, the mjData this simulator's workspace. Step copies
// our State into qpos / qvel (converting the free joint's velocity, below), the clamped controls
// into ctrl, calls mj_step and copies back. MuJoCo's soft contact (solref 0.02 1, solimp 0.9
// 0.95 0.001) is its own: a resting body sinks a little, by design.
//
// State conversion. Hinge, slide and ball coordinates are ours unchanged (the body frames
// coincide, scene_to_mjcf.h). A free joint's q = (p, quat) is the pose of the child in its
// joint frame J (placed at X_PJ in the world) and v = (omega, v) is the body twist in the child
// frame; MuJoCo's free qpos is the body's world pose and qvel = (world linear velocity of the
// body origin, body-frame angular velocity). So
//   qpos = (R_PJ p + p_PJ, quat_PJ * quat),  qvel = (R_WB v, omega),  R_WB = R_PJ R(quat).
// Integration then differs: MuJoCo's semi-implicit Euler moves the origin with the world-frame
// velocity (R^3 x SO(3)), ours with the body twist on SE(3); see docs/models/mujoco.md.
//
// Derivatives: central, forward or Ridders finite differences of Step on the configuration
// manifold (models/finite_difference_derivatives.h), the way MuJoCo users obtain them
// (MuJoCo 2.2.2's own mjd_transitionFD is forward/central only and uses its own coordinates).
// Every perturbed step starts from the warm start of the nominal one, as mjd_transitionFD does.
#pragma once

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "core/common/options.h"
#include "models/option_ranges.h"
#include "models/simulator.h"
#include "models/finite_difference_derivatives.h"

// MuJoCo's C types, declared here so that only mujoco_simulator.cc includes mujoco.h.
struct mjModel_;
struct mjData_;

namespace arena {

enum class MujocoIntegrator { kEuler, kRk4, kImplicit };
std::string_view ToString(MujocoIntegrator v);
bool FromString(std::string_view text, MujocoIntegrator* v);
std::string EnumValues(MujocoIntegrator);

enum class MujocoSolver { kPgs, kCg, kNewton };
std::string_view ToString(MujocoSolver v);
bool FromString(std::string_view text, MujocoSolver* v);
std::string EnumValues(MujocoSolver);

enum class MujocoCone { kPyramidal, kElliptic };
std::string_view ToString(MujocoCone v);
bool FromString(std::string_view text, MujocoCone* v);
std::string EnumValues(MujocoCone);

/// MuJoCo's physics options (defaults are MuJoCo 2.2.2's) and the finite differences.
struct MujocoOptions {
  double timestep = 0.002;                             // s (mjOption.timestep)
  MujocoIntegrator integrator = MujocoIntegrator::kEuler;
  MujocoSolver solver = MujocoSolver::kNewton;
  MujocoCone cone = MujocoCone::kPyramidal;
  double impratio = 1.0;                               // frictional-to-normal impedance ratio
  int iterations = 100;                                // solver iteration limit
  double tolerance = 1e-8;                             // solver tolerance (scaled cost change)
  bool warm_start = true;                              // solver warm start from the previous step
  // Ridders from 1e-5: from 1e-2 or 1e-3 the tableau straddles changes of the constraint set
  // (docs/models/mujoco.md, Derivatives).
  FdStepOptions fd{.fd_ridders_step = 1e-5};  // Derivatives(): fd_method, fd_step, fd_ridders_step

  template <class V>
  void VisitFields(V&& v) {
    v("timestep", timestep, "step length (mjOption.timestep)", "s", kTimestepRange);
    v("integrator", integrator,
      "MuJoCo integrator: euler (semi-implicit; joint damping implicit), rk4, implicit (in velocity)", "");
    v("solver", solver, "constraint solver: pgs (dual), cg or newton (primal)", "");
    v("cone", cone, "friction cone: pyramidal or elliptic", "");
    // MuJoCo's default is 1; at 100 frictional constraints are a hundred times stiffer than the
    // normal ones they rest on, at 0.01 a hundred times softer.
    v("impratio", impratio, "ratio of frictional to normal constraint impedance", "", Closed(1e-2, 100.0));
    v("iterations", iterations, "constraint solver iteration limit (a step reaching it unconverged fails)", "",
      kStepIterationRange);
    // 0 turns early termination off (MuJoCo runs every iteration); above 1e-3 the solver may stop
    // before the contact forces carry the weight.
    v("tolerance", tolerance, "solver tolerance on the scaled cost improvement / gradient", "", Closed(0.0, 1e-3));
    v("warm_start", warm_start,
      "start the solver from the previous step's acceleration when the step continues the last one", "");
    fd.VisitFields(v);
  }
  std::string Validate() const;
};

class MujocoSimulator final : public SimulatorBase<MujocoSimulator, MujocoOptions> {
 public:
  /// Throws Unsupported naming the collider, joint or actuator MuJoCo cannot represent (or
  /// MuJoCo's own compiler message), InvalidArgument for bad options.
  MujocoSimulator(std::shared_ptr<const Scene> scene, const MujocoOptions& options);
  ~MujocoSimulator() override;

  static constexpr std::string_view kName = "mujoco";
  static Capabilities CapabilitiesFor(const MujocoOptions& options);
  /// MuJoCo's contacts are soft constraints: a contact sinks until its impedance carries the
  /// load, so a fallen humanoid's small links sink 16 mm, 0.55 of their bounding radius
  /// (drchubo's fingers); a body sunk past its whole radius has gone through.
  double penetration_allowance() const override { return 1.0; }

  /// The MJCF the scene was translated to (options are set on mjModel.opt, not in the text).
  const std::string& mjcf() const { return mjcf_; }
  /// The compiled model and this simulator's data (tests inspect them).
  const mjModel_* mj_model() const { return model_.get(); }
  const mjData_* mj_data() const { return data_.get(); }
  bool ReportsContactPoints() const override { return true; }

 protected:
  StepReport DoStep(State& state, const Control& control) override;
  void DoDerivatives(const State& state, const Control& control, StepDerivatives* out) override;
  std::vector<ContactPoint> DoContactPoints() override { return step_points_; }

 private:
  static constexpr int kUnknownBody = -2;  // a geom that is none of the scene's colliders
  void RecordContactPoints();
  struct ModelDeleter { void operator()(mjModel_* m) const; };
  struct DataDeleter { void operator()(mjData_* d) const; };
  // Where one of our joints lives in MuJoCo's qpos / qvel.
  struct JointMap {
    int body = 0;
    JointType type = JointType::kFixed;
    int idx_q = 0, idx_v = 0;          // ours
    int qpos = 0, dof = 0;             // MuJoCo's
    SE3 X_PJ;                          // free joints: the joint frame in the world
    bool identity_placement = true;
  };

  // Whether `state` is what the last step returned (a rollout continuing it).
  bool Continues(const State& state) const;
  void WriteState(const State& state);
  void ReadState(State* state) const;

  // Immutable after construction.
  std::string mjcf_;
  std::unique_ptr<mjModel_, ModelDeleter> model_;
  std::vector<JointMap> joints_;
  std::vector<int> actuator_ids_;  // MuJoCo actuator of each of ours
  std::vector<int> geom_body_;     // per MuJoCo geom: our body (kWorldBody), or kUnknownBody

  // Workspace.
  std::unique_ptr<mjData_, DataDeleter> data_;
  VecX warm_start_;        // qacc_warmstart after the last step (MuJoCo's qacc)
  State last_output_;      // the state the last step returned; a step from it continues it
  bool have_last_ = false;
  bool pin_warm_start_ = false;  // Derivatives(): every step starts from pinned_warm_start_
  VecX pinned_warm_start_;
  std::vector<ContactPoint> step_points_;  // the last taken step's contacts and forces
};

}  // namespace arena
