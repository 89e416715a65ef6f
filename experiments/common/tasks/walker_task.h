// The task of seed 003's walking robots (the spider of Fig. 11, the biped of Figs. 12-13): the
// sine-wave targets of the leg DOFs (a, omega, phi per DOF and term) and, with co-design, the
// feet's hull vertices after them, as offsets d from the start design p0 in units of
// `design_scale` (p = p0 + design_scale d: Adam's steps are about its learning rate in every
// variable, so the scale sets how far a vertex moves per iteration) and bounded by
// `design_reach` in each coordinate (the lower leg's frame): the robots start higher than that
// above the ground, so no design makes a start infeasible. Loss: |(x, y)_root(q_T) - (x, y)*|^2
// with the target `target_distance` along +x from the start (the root's first two coordinates,
// slides along x and y), plus `hold_weight` times the squared change of the `held` coordinates
// (the biped's height, roll and pitch: it should end upright) and `running_hold_weight` times its
// mean over every state of the horizon (it should stay upright all along). The gradient is the backward pass
// through the rollout pulled back to the sines (trajectory/controller_objective.h); the loss
// does not depend on the feet at fixed q_T. RunWalkerCase is an experiment's case of it.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "experiments/common/settings/adam_config.h"
#include "experiments/common/sweeps/sweep_limits.h"
#include "experiments/experiment.h"
#include "models/simulator.h"
#include "solvers/objective.h"
#include "trajectory/controller_objective.h"
#include "trajectory/shooting_objective.h"

namespace arena {

struct WalkerTaskOptions {
  int steps = 300;
  double timestep = 0.01;
  int terms = 2;                    // [GUESS] sines per leg DOF
  double target_distance = 10.0;    // ours: m down the slope, beyond any walk of the horizon
  double initial_amplitude = 0.2;   // ours: rad, every term
  double omega_min = 4.0, omega_max = 8.0;  // ours: rad/s, the terms' initial frequencies
  double phase_step = 0.7;          // ours: rad between consecutive DOFs' initial phases
  double design_scale = 0.1;        // ours: m per unit of a design variable
  double design_reach = 0.02;       // ours: m, how far a foot vertex may move in each coordinate
  std::vector<int> held;            // coordinates of q held at their start value by the loss
  double hold_weight = 0.0;         // at the last state
  double running_hold_weight = 0.0; // over the horizon: the mean over every state (running_state_loss.h)
};

class WalkerObjective final : public Objective {
 public:
  /// `sim` (not owned; a scene whose q starts with slides along x and y) must outlive the
  /// objective; with `codesign` it must have design parameters (throws Unsupported otherwise).
  WalkerObjective(Simulator& sim, const WalkerTaskOptions& options, bool codesign);

  int dimension() const override { return controller_.dimension(); }
  /// Also records the walking distance of the rollout (walks()).
  double Evaluate(const VecX& x, VecX* gradient) override;
  /// The sines are unbounded; the design offsets within +-design_reach / design_scale.
  VecX lower() const override;
  VecX upper() const override;
  std::int64_t evaluations() const override { return controller_.evaluations(); }
  std::int64_t gradient_evaluations() const override { return controller_.gradient_evaluations(); }

  /// The sines' start (WalkerTaskOptions) and, with co-design, zero design offsets.
  VecX Start() const;
  int num_design_parameters() const { return np_; }
  /// The model's design parameters at x (co-design), p0 + design_scale d.
  VecX DesignOf(const VecX& x) const;
  /// The root's displacement along +x at the end of each Evaluate's rollout so far, in order (NaN
  /// where it failed): with Adam, entry i belongs to iteration i.
  const std::vector<double>& walks() const { return walks_; }
  const Rollout& last_rollout() const { return shooting_.last_rollout(); }

 private:
  Simulator& sim_;
  WalkerTaskOptions options_;
  ShootingObjective shooting_;
  ControllerObjective controller_;
  int np_ = 0;
  VecX p0_;            // the start design
  VecX inner_gradient_;
  std::vector<double> walks_;
};

/// The settings every walker experiment shares (its config keys and case parameters, after the
/// sweep's variant). An experiment's own fields go after Adam's: its VisitFields passes them as
/// `own`, called at that place, so its columns keep their order.
struct WalkerSettings {
  double timestep_s = 0.01;
  std::int64_t steps = 0;
  std::int64_t terms = 0;
  std::int64_t iterations = 0;
  AdamSettings adam;
  double target_distance_m = 0.0;
  double initial_amplitude_rad = 0.0;
  std::string design;

  template <class V, class Own>
  void VisitFields(V&& v, Own&& own) {
    v("timestep_s", timestep_s, "step length (s)", "s", Closed(1e-4, 0.1));
    v("steps", steps, "horizon: the loss is at its last state", "", Closed(1, kMaxStepsPerCase));
    v("terms", terms, "sines per leg DOF", "", Closed(1, 16));
    v("iterations", iterations, "Adam iterations", "", Closed(1, kMaxIterationsPerCase));
    adam.VisitFields(v);
    own();
    v("target_distance_m", target_distance_m, "the target's distance along +x from the start", "m", Closed(0.0, 100.0));
    v("initial_amplitude_rad", initial_amplitude_rad, "every sine's amplitude at the start", "rad", Closed(0.0, 1.5));
    v("design", design, "the start design's file (arena export-design's OBJ; empty: the scene's feet)");
  }
  /// `options` with this case's steps, timestep, terms, target and amplitude.
  WalkerTaskOptions TaskOptions(WalkerTaskOptions options) const;
};

/// The sweep of a walker experiment: `params` (its settings' CaseParams; `walker` among them) over
/// the models and the config's variants (ExpandCodesignSweep). A design file is read here, so
/// that a bad one fails the sweep; a start design puts the design parameters in the control
/// variant too.
Sweep ExpandWalkerSweep(const ProfileConfig& config, const std::vector<std::string>& models, const std::string& experiment,
                        const std::shared_ptr<const Scene>& scene, const std::string& designed,
                        const WalkerSettings& walker, const std::vector<std::pair<std::string, Value>>& params);

/// The columns every walker experiment writes: the variant, `params` (its settings'
/// ParamColumns), then the iteration and design rows' (see RunWalkerCase).
std::vector<Column> WalkerColumns(const std::vector<Column>& params);

/// One case of a walker experiment on `scene`: Adam on the case's model with `walker`'s settings
/// (`options` the rest), a row per iteration (loss, best loss, the iterate's walk along +x and the
/// best iterate's, gradient norm), the optimiser's stop and the smallest hull distance over the
/// best rollout in the last, and (co-design) the design rows of the start and the best iterate.
/// `describe_best` (optional) adds the experiment's own measures of the best rollout to the last
/// iteration row.
std::vector<Row> RunWalkerCase(const Case& c, const std::shared_ptr<const Scene>& scene, const WalkerSettings& walker,
                               const WalkerTaskOptions& options,
                               const std::function<void(const Rollout& best, Row* last)>& describe_best = {});

}  // namespace arena
