#include "experiments/common/tasks/walker_task.h"

#include <cmath>
#include <limits>

#include "experiments/common/settings/adam_config.h"
#include "experiments/common/sweeps/codesign_sweep.h"
#include "experiments/common/settings/design_file.h"
#include "experiments/common/meters/hull_distances.h"
#include "experiments/common/meters/potential_timing.h"
#include "experiments/common/meters/recording_objective.h"
#include "experiments/common/sweeps/sweep_limits.h"
#include "config/profile_config.h"
#include "models/registry.h"
#include "solvers/first_order_optimizers.h"
#include "trajectory/running_state_loss.h"
#include "trajectory/trajectory_loss.h"

namespace arena {

namespace walker_task {

constexpr int kRootX = 0, kRootY = 1;  // the walkers' q starts with slides along x and y

std::shared_ptr<const TrajectoryLoss> WalkLoss(const Scene& scene, const WalkerTaskOptions& o) {
  auto terminal = std::make_shared<TerminalStateLoss>();
  const int nv = scene.nv();
  terminal->q_target = DefaultState(scene).q;
  terminal->q_target[kRootX] += o.target_distance;
  terminal->q_weight = VecX::Zero(nv);
  terminal->q_weight[kRootX] = terminal->q_weight[kRootY] = 1.0;
  for (int i : o.held) terminal->q_weight[i] = o.hold_weight;
  terminal->v_weight = VecX::Zero(nv);
  if (o.running_hold_weight == 0.0 || o.held.empty()) return terminal;
  auto running = std::make_shared<RunningStateLoss>();
  running->q_target = DefaultState(scene).q;
  running->q_weight = VecX::Zero(nv);
  for (int i : o.held) running->q_weight[i] = o.running_hold_weight;
  auto sum = std::make_shared<LossSum>();
  sum->terms = {terminal, running};
  return sum;
}

}  // namespace walker_task

WalkerObjective::WalkerObjective(Simulator& sim, const WalkerTaskOptions& options, bool codesign)
    : sim_(sim),
      options_(options),
      shooting_(sim, DefaultState(sim.scene()), options.steps, walker_task::WalkLoss(sim.scene(), options),
                codesign),
      controller_(shooting_, SineWaveControls(sim.scene().nu(), options.timestep, options.steps,
                                              SineWaveChannelsOf(sim.scene()), options.terms)) {
  np_ = codesign ? static_cast<int>(sim.DesignParameters().size()) : 0;
  if (np_ > 0) p0_ = sim.DesignParameters();
}

VecX WalkerObjective::DesignOf(const VecX& x) const { return p0_ + options_.design_scale * x.tail(np_); }

VecX WalkerObjective::lower() const { return -upper(); }

VecX WalkerObjective::upper() const {
  VecX b = VecX::Constant(dimension(), std::numeric_limits<double>::infinity());
  b.tail(np_).setConstant(options_.design_reach / options_.design_scale);
  return b;
}

VecX WalkerObjective::Start() const {
  const VecX theta =
      controller_.controller().Initial(options_.initial_amplitude, options_.omega_min, options_.omega_max, options_.phase_step);
  VecX x(dimension());
  x.head(theta.size()) = theta;
  x.tail(np_).setZero();
  return x;
}

double WalkerObjective::Evaluate(const VecX& x, VecX* gradient) {
  VecX y = x;
  if (np_ > 0) y.tail(np_) = DesignOf(x);
  const double loss = controller_.Evaluate(y, gradient != nullptr ? &inner_gradient_ : nullptr);
  if (gradient != nullptr && std::isfinite(loss)) {
    *gradient = inner_gradient_;
    gradient->tail(np_) *= options_.design_scale;
  }
  const Rollout& r = shooting_.last_rollout();
  walks_.push_back(r.ok() ? r.states.back().q[walker_task::kRootX] - r.states.front().q[walker_task::kRootX]
                          : std::numeric_limits<double>::quiet_NaN());
  return loss;
}

WalkerTaskOptions WalkerSettings::TaskOptions(WalkerTaskOptions options) const {
  options.steps = static_cast<int>(steps);
  options.timestep = timestep_s;
  options.terms = static_cast<int>(terms);
  options.target_distance = target_distance_m;
  options.initial_amplitude = initial_amplitude_rad;
  return options;
}

Sweep ExpandWalkerSweep(const ProfileConfig& config, const std::vector<std::string>& models, const std::string& experiment,
                        const std::shared_ptr<const Scene>& scene, const std::string& designed,
                        const WalkerSettings& walker, const std::vector<std::pair<std::string, Value>>& params) {
  if (!walker.design.empty()) ReadDesignFile(walker.design);  // a bad file fails the sweep here, naming the file and line
  CodesignSweepSpec spec;
  spec.experiment = experiment;
  spec.scene = scene;
  spec.variants = ReadCodesignVariants(config);
  spec.timestep = walker.timestep_s;
  spec.designed = designed;
  spec.params = params;
  Sweep sweep = ExpandCodesignSweep(config, models, spec);
  // A start design needs the design parameters in the control variant too (not optimised there).
  for (Case& c : sweep.cases) {
    if (walker.design.empty() || !DesignsHulls(c.model)) continue;
    c.model_options["design_derivatives"] = "true";
    c.model_options["design_colliders"] = designed;
  }
  return sweep;
}

std::vector<Column> WalkerColumns(const std::vector<Column>& params) {
  std::vector<Column> columns = {
      {"variant", "control (the sines of the leg DOFs) or codesign (and the feet's hulls)", false, ColumnType::kText}};
  columns.insert(columns.end(), params.begin(), params.end());
  const std::vector<Column> rows = {
      {"design_parameters", "decision variables beyond the sines (the feet's hull vertex coordinates)"},
      {"record", "iteration (one Adam iteration) or design (a vertex of a foot hull)", false, ColumnType::kText},
      {"iteration", "iteration: 0 = the start"},
      {"loss", "iteration: the loss of this iterate (m^2; inf: its rollout failed)"},
      {"best_loss", "iteration: the best loss so far"},
      {"distance_m", "iteration: how far this iterate's robot walked along +x (root x, end - start)"},
      {"best_distance_m", "iteration: the walk of the best-loss iterate so far"},
      {"gradient_norm", "iteration: |dL/dx|"},
      {"elapsed_s", "iteration: wall-clock time since the optimiser started", true},
      {"stop", "last iteration row: why Adam stopped", false, ColumnType::kText},
      {"min_distance_m", "last iteration row: the smallest hull-ground distance over the best iterate's rollout (m; the "
                         "barrier keeps it > 0)"},
      {"failure", "last iteration row: why the run failed", false, ColumnType::kText},
      {"stage", "design: initial or optimised (the best iterate's design)", false, ColumnType::kText},
      {"collider", "design: the foot hull (foot<leg>_<hull>)", false, ColumnType::kText},
      {"vertex", "design: the vertex's row in its hull's points"},
      {"x_m", "design: x in the foot's body frame"},
      {"y_m", "design: y in the foot's body frame"},
      {"z_m", "design: z in the foot's body frame"},
  };
  columns.insert(columns.end(), rows.begin(), rows.end());
  return columns;
}

std::vector<Row> RunWalkerCase(const Case& c, const std::shared_ptr<const Scene>& scene, const WalkerSettings& walker,
                               const WalkerTaskOptions& options,
                               const std::function<void(const Rollout& best, Row* last)>& describe_best) {
  const std::string variant = DecodeSettings<CodesignCase>(c).variant;
  std::unique_ptr<Simulator> sim = MakeSimulator(c.model, scene, c.model_options);
  Simulator& ip = AsContactPotentialModel(*sim);
  if (!walker.design.empty()) ip.SetDesignParameters(DesignFromFile(ip, walker.design));
  WalkerObjective objective(ip, walker.TaskOptions(options), variant == "codesign");
  RecordingObjective recording(objective);
  OptimizerBudget budget;
  budget.max_iterations = walker.iterations;
  budget.threshold = 0.0;
  const VecX start = objective.Start();
  const OptimizerTrace trace = MinimizeAdam(recording, start, walker.adam.options(), budget);

  std::vector<Row> rows;
  const auto& records = recording.records();
  const std::vector<double>& walks = objective.walks();
  const int np = objective.num_design_parameters();
  double best = std::numeric_limits<double>::infinity(), best_walk = std::numeric_limits<double>::quiet_NaN();
  for (size_t i = 0; i < trace.iterations.size() && i < records.size(); ++i) {
    const RecordingObjective::Record& r = records[i];
    if (r.loss < best) best = r.loss, best_walk = walks[i];
    Row row{{"record", std::string("iteration")},
            {"variant", variant},
            {"iteration", trace.iterations[i].iteration},
            {"loss", r.loss},
            {"best_loss", trace.iterations[i].loss},
            {"distance_m", walks[i]},
            {"best_distance_m", best_walk},
            {"design_parameters", static_cast<std::int64_t>(np)},
            {"elapsed_s", trace.iterations[i].elapsed_s}};
    if (std::isfinite(r.gradient_norm)) row["gradient_norm"] = r.gradient_norm;
    rows.push_back(std::move(row));
  }
  if (rows.empty()) rows.push_back({{"record", std::string("iteration")}, {"variant", variant}});
  Row& last = rows.back();
  MarkOptimiserStop(trace, objective.last_rollout(), &last);
  if (trace.best_x.size() == objective.dimension() && std::isfinite(objective.Evaluate(trace.best_x, nullptr))) {
    last["min_distance_m"] = MinimumHullDistance(ip, objective.last_rollout().states);
    if (describe_best) describe_best(objective.last_rollout(), &last);
    if (np > 0) {
      AppendDesignRows(ip, objective.DesignOf(start), "initial", variant, &rows);
      AppendDesignRows(ip, objective.DesignOf(trace.best_x), "optimised", variant, &rows);
    }
  }
  return rows;
}

}  // namespace arena
