// The task of seed 003's single-jaw gripper (Sec. VII, Figs. 14-18), reduced (scenes/
// gripper_scenes.h): the jaw follows a fixed script and only its shape is optimised, as the
// paper's grippers' controls are fixed. The script (GripperScriptControls) has the paper's
// stages 1 (lower), 2 (approach) and 4 (lift; stage 3, rotating the X back to its initial
// orientation, has nothing to undo when the X stays level, and is left out), then a short hold.
// The loss (GripperGraspLoss) is the paper's stage-2 term, the X should not move while the jaw
// approaches, plus its stage-4 term, the X should not move relative to the jaw while it lifts:
//   L = w_push mean_{t <= g} |p_X(t) - p_X(0)|^2
//     + w_lift mean_{t > g} |(p_X(t) - p_J(t)) - (p_X(g) - p_J(g))|^2,
// g the last step of the approach, p_X the X's frame origin (the crossing of its bars) and p_J
// the jaw's. The jaw only translates, so G_t^-1 O_t's translation is R_J^T (p_X - p_J) with R_J
// = I; the X's rotation relative to the jaw is not in the loss (ours: the paper's exact stage-4
// norm is stripped; the X's tilt in the hole shows in the rise, see GripperMeasures).
#pragma once

#include <cstdint>
#include <limits>
#include <memory>
#include <vector>

#include "models/simulator.h"
#include "scenes/gripper_scenes.h"
#include "solvers/objective.h"
#include "trajectory/shooting_objective.h"
#include "trajectory/trajectory_loss.h"

namespace arena {

struct GripperStages {
  int lower = 10, approach = 25, lift = 25, hold = 10;  // steps of each stage
  int grasp() const { return lower + approach; }       // g: the state at the end of the approach
  int total() const { return lower + approach + lift + hold; }
};

/// The script's PD and velocity targets (scenes/gripper_scenes.h GripperScript's waypoints, a
/// smoothstep between consecutive ones per stage), stacked step by step for the scene's six
/// actuators (x, y, z: position then velocity target). The z targets are raised by the jaw's
/// weight over kp, so that the jaw follows the script rather than sagging below it.
VecX GripperScriptControls(const Scene& scene, const GripperStages& stages, double timestep, double kp);

struct GripperGraspLoss final : TrajectoryLoss {
  GripperStages stages;
  int object = -1;             // the X's body (on a free joint)
  int slides[3] = {0, 1, 2};   // the jaw's slides' indices in q and v
  double push_weight = 1.0, lift_weight = 1.0;

  /// The loss for `scene` (scenes/gripper_scenes.h), with the stages and weights.
  static std::shared_ptr<GripperGraspLoss> For(const Scene& scene, const GripperStages& stages, double push_weight,
                                               double lift_weight);
  /// Each term unweighted: the push (m^2) and the lift's relative motion (m^2).
  double Push(const Scene& scene, const std::vector<State>& states) const;
  double Lift(const Scene& scene, const std::vector<State>& states) const;
  double Value(const Scene& scene, const std::vector<State>& states, const VecX& controls) const override;
  void Gradient(const Scene& scene, const std::vector<State>& states, const VecX& controls,
                TrajectoryLossGradient* g) const override;
};

/// What a rollout of the task did: the X's rise (its frame's height at the end minus at the
/// start), whether it was held (the rise at least half the script's lift: carried by the jaw,
/// not pushed along or left behind), the loss's terms and the RMS relative motion over the lift.
struct GripperMeasures {
  double rise_m = 0.0;
  bool held = false;
  double push = 0.0, lift = 0.0;
  double relative_motion_m = 0.0;
};
GripperMeasures MeasureGrasp(const Scene& scene, const GripperGraspLoss& loss, const std::vector<State>& states);

/// How deep the hole is: the smallest body-frame y of the middle block's vertices in design `p`
/// (0 at the start: the wall's front face; the wall is kGripperThickness thick).
double HoleDepth(const Simulator& sim, const VecX& p);

/// Shape only: x = the design's offsets from the start design p0 (m), each coordinate within
/// +-kGripperDesignReach but y up to +kGripperDesignReachBack (back through the wall); the
/// controls are the script, fixed.
class GripperObjective final : public Objective {
 public:
  /// `sim` (not owned; the gripper scene with its jaw's blocks as design vertices) must outlive
  /// the objective. Throws Unsupported without design parameters.
  GripperObjective(Simulator& sim, const GripperStages& stages, double timestep, double kp,
                   double push_weight, double lift_weight);

  int dimension() const override { return np_; }
  /// Also records the rollout's measures (measures()).
  double Evaluate(const VecX& x, VecX* gradient) override;
  VecX lower() const override;
  VecX upper() const override;
  std::int64_t evaluations() const override { return shooting_.evaluations(); }
  std::int64_t gradient_evaluations() const override { return shooting_.gradient_evaluations(); }

  VecX DesignOf(const VecX& x) const { return p0_ + x; }
  /// Per Evaluate so far, in order: the iterate, its loss, |gradient| (NaN without one) and
  /// measures (a failed rollout: rise NaN, not held); with Adam entry i belongs to iteration i.
  /// (Recorded here, with the rollout's measures, which a RecordingObjective around it cannot see.)
  struct Record {
    VecX x;
    double loss = 0.0;
    double gradient_norm = std::numeric_limits<double>::quiet_NaN();
    GripperMeasures measures;
  };
  const std::vector<Record>& records() const { return records_; }
  const Rollout& last_rollout() const { return shooting_.last_rollout(); }
  const GripperGraspLoss& loss() const { return *loss_; }

 private:
  Simulator& sim_;
  std::shared_ptr<GripperGraspLoss> loss_;
  ShootingObjective shooting_;
  VecX controls_, p0_, inner_;
  int np_ = 0;
  std::vector<Record> records_;
};

}  // namespace arena
