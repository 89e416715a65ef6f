#include "experiments/grippers/grippers.h"

#include <cmath>
#include <limits>
#include <memory>
#include <string>

#include "config/profile_config.h"
#include "experiments/result_table.h"
#include "core/common/error.h"
#include "experiments/common/settings/adam_config.h"
#include "experiments/common/settings/settings.h"
#include "experiments/common/sweeps/codesign_sweep.h"
#include "experiments/common/settings/design_file.h"
#include "experiments/common/meters/hull_distances.h"
#include "experiments/common/meters/potential_timing.h"
#include "experiments/common/sweeps/sweep_limits.h"
#include "experiments/common/summaries/table_stats.h"
#include "experiments/grippers/gripper_task.h"
#include "models/registry.h"
#include "scenes/gripper_scenes.h"
#include "solvers/first_order_optimizers.h"

namespace arena {

namespace grippers_detail {

// Every case's parameters; grippers' config keys besides models and the sdrs options.
struct GrippersSettings {
  double timestep_s = 0.01;
  std::int64_t lower_steps = 0;
  std::int64_t approach_steps = 0;
  std::int64_t lift_steps = 0;
  std::int64_t hold_steps = 0;
  std::int64_t iterations = 0;
  AdamSettings adam;
  double adam_epsilon = 0.0;
  double push_weight = 0.0;
  double lift_weight = 0.0;
  double friction = 0.0;
  std::string design;

  template <class V>
  void VisitFields(V&& v) {
    const Range steps = Closed(1, kMaxStepsPerCase);
    v("timestep_s", timestep_s, "step length (s)", "s", Closed(1e-4, 0.1));
    v("lower_steps", lower_steps, "stage 1: steps lowering the jaw to the X's arm height", "", steps);
    v("approach_steps", approach_steps, "stage 2: steps moving the jaw towards the X (-y)", "", steps);
    v("lift_steps", lift_steps, "stage 4: steps lifting the jaw", "", steps);
    v("hold_steps", hold_steps, "steps holding the jaw still after the lift", "", Closed(0, kMaxStepsPerCase));
    v("iterations", iterations, "Adam iterations", "", Closed(1, kMaxIterationsPerCase));
    adam.VisitFields(v);
    v("adam_epsilon", adam_epsilon,
      "Adam's epsilon: a gradient entry far below it moves its variable far less than the learning rate", "",
      Closed(1e-12, 1.0));
    v("push_weight", push_weight, "weight of the stage-2 term (the X pushed while the jaw approaches)", "",
      Closed(0.0, 1e6));
    v("lift_weight", lift_weight, "weight of the stage-4 term (the X's motion relative to the jaw while it lifts)", "",
      Closed(0.0, 1e6));
    v("friction", friction, "every collider's friction coefficient", "", Closed(0.0, 2.0));
    v("design", design, "the start design's file (arena export-design's OBJ; empty: the scene's wall)");
  }

  GripperStages stages() const {
    return {static_cast<int>(lower_steps), static_cast<int>(approach_steps), static_cast<int>(lift_steps),
            static_cast<int>(hold_steps)};
  }
  AdamOptions adam_options() const {
    AdamOptions out = adam.options();
    out.epsilon = adam_epsilon;
    return out;
  }
};

// A rollout's jaw and X (y, z per step; the script moves in the y-z plane) as path rows.
void AppendPath(const Scene& scene, const GripperGraspLoss& loss, const std::vector<State>& states, const std::string& stage,
                std::vector<Row>* rows) {
  const int i = scene.model.body(loss.object).idx_q;
  for (size_t t = 0; t < states.size(); ++t) {
    const VecX& q = states[t].q;
    rows->push_back({{"record", std::string("path")},
                     {"stage", stage},
                     {"frame", static_cast<std::int64_t>(t)},
                     {"jaw_y_m", q[loss.slides[1]]},
                     {"jaw_z_m", q[loss.slides[2]]},
                     {"object_y_m", q[i + 1]},
                     {"object_z_m", q[i + 2]}});
  }
}

}  // namespace grippers_detail

std::vector<Column> GrippersExperiment::columns() const {
  std::vector<Column> columns = {
      {"variant", "codesign: the jaw's shape alone (the script is fixed)", false, ColumnType::kText}};
  const std::vector<Column> params = ParamColumns<grippers_detail::GrippersSettings>();
  columns.insert(columns.end(), params.begin(), params.end());
  const std::vector<Column> rows = {
      {"design_parameters", "decision variables (the blocks' vertex coordinates)"},
      {"record", "iteration (one Adam iteration), path (a step of the start's or the best iterate's rollout) or design "
                 "(a vertex of a block)", false, ColumnType::kText},
      {"iteration", "iteration: 0 = the start design"},
      {"loss", "iteration: this iterate's loss (m^2; inf: its rollout failed)"},
      {"best_loss", "iteration: the best loss so far"},
      {"push_m2", "iteration: the stage-2 term, mean |p_X(t) - p_X(0)|^2 over stages 1-2"},
      {"lift_m2", "iteration: the stage-4 term, mean |d(t) - d(g)|^2 over the lift and hold (d: the X's offset from the "
                  "jaw)"},
      {"rise_m", "iteration: the X's rise (its frame's height at the end minus at the start)"},
      {"held", "iteration: 1 if the X rose at least half the jaw's lift (carried by the jaw), else 0"},
      {"hole_depth_m", "iteration: the middle block's nearest vertex behind the wall's front face (0: no hole; the arm "
                       "enters 0.08 m)"},
      {"best_held", "iteration: held of the best-loss iterate so far"},
      {"best_rise_m", "iteration: rise_m of the best-loss iterate so far"},
      {"gradient_norm", "iteration: |dL/dp|"},
      {"elapsed_s", "iteration: wall-clock time since the optimiser started", true},
      {"stop", "last iteration row: why Adam stopped", false, ColumnType::kText},
      {"initial_held", "last iteration row: held, the start design on a fresh simulator (no warm starts from other rollouts)"},
      {"initial_rise_m", "last iteration row: rise_m, the start design on a fresh simulator"},
      {"initial_loss", "last iteration row: the loss, the start design on a fresh simulator"},
      {"optimised_held", "last iteration row: held, the best iterate's design on a fresh simulator"},
      {"optimised_rise_m", "last iteration row: rise_m, the best iterate's design on a fresh simulator"},
      {"optimised_loss", "last iteration row: the loss, the best iterate's design on a fresh simulator"},
      {"min_distance_m", "last iteration row: the smallest hull distance over the best iterate's fresh rollout (m; the "
                         "barrier keeps it > 0: no penetration)"},
      {"failure", "last iteration row: why the run failed", false, ColumnType::kText},
      {"stage", "path, design: initial (the start design) or optimised (the best iterate), each rolled out on a fresh "
                "simulator", false, ColumnType::kText},
      {"frame", "path: the step"},
      {"jaw_y_m", "path: the jaw's origin y"},
      {"jaw_z_m", "path: the jaw's origin z"},
      {"object_y_m", "path: the X's frame y"},
      {"object_z_m", "path: the X's frame z"},
      {"collider", "design: the block (block<row><column>, row 0 at the bottom)", false, ColumnType::kText},
      {"vertex", "design: the vertex's row in its block's points"},
      {"x_m", "design: x in the jaw's frame"},
      {"y_m", "design: y in the jaw's frame (0: the wall's front face; the X is towards -y)"},
      {"z_m", "design: z in the jaw's frame (0: the hole's centre height)"},
  };
  columns.insert(columns.end(), rows.begin(), rows.end());
  return columns;
}

Sweep GrippersExperiment::Expand(const ProfileConfig& config, const std::vector<std::string>& models) const {
  const auto settings = ReadSettings<grippers_detail::GrippersSettings>(config);
  if (settings.stages().total() > kMaxStepsPerCase) {
    throw InvalidArgument(config.file() + ": lower_steps + approach_steps + lift_steps + hold_steps is beyond " +
                          std::to_string(kMaxStepsPerCase));
  }
  if (!settings.design.empty()) ReadDesignFile(settings.design);  // a bad file fails the sweep here, naming the file and line
  CodesignSweepSpec spec;
  spec.experiment = name();
  spec.scene = GripperScene({.friction = settings.friction});
  spec.variants = {"codesign"};  // shape only: the script is fixed (the paper's grippers' controls are)
  spec.timestep = settings.timestep_s;
  spec.designed = kGripperBlockPrefix;
  spec.params = CaseParams(settings);
  return ExpandCodesignSweep(config, models, spec);
}

std::vector<Row> GrippersExperiment::Run(const Case& c) const {
  using namespace grippers_detail;
  const std::string variant = DecodeSettings<CodesignCase>(c).variant;
  const auto settings = DecodeSettings<GrippersSettings>(c);
  const GripperOptions scene_options{.friction = settings.friction};
  std::unique_ptr<Simulator> sim = MakeSimulator(c.model, GripperScene(scene_options), c.model_options);
  Simulator& ip = AsContactPotentialModel(*sim);
  if (!settings.design.empty()) ip.SetDesignParameters(DesignFromFile(ip, settings.design));
  GripperObjective objective(ip, settings.stages(), settings.timestep_s, scene_options.kp, settings.push_weight,
                             settings.lift_weight);
  OptimizerBudget budget;
  budget.max_iterations = settings.iterations;
  budget.threshold = 0.0;
  const VecX start = VecX::Zero(objective.dimension());
  const OptimizerTrace trace = MinimizeAdam(objective, start, settings.adam_options(), budget);

  std::vector<Row> rows;
  const std::vector<GripperObjective::Record>& records = objective.records();
  double best = std::numeric_limits<double>::infinity();
  GripperMeasures best_measures;
  best_measures.rise_m = std::numeric_limits<double>::quiet_NaN();
  for (size_t i = 0; i < trace.iterations.size() && i < records.size(); ++i) {
    const GripperObjective::Record& r = records[i];
    const GripperMeasures& m = r.measures;
    if (r.loss < best) best = r.loss, best_measures = m;
    Row row{{"record", std::string("iteration")},
            {"variant", variant},
            {"iteration", trace.iterations[i].iteration},
            {"loss", r.loss},
            {"best_loss", trace.iterations[i].loss},
            {"push_m2", m.push},
            {"lift_m2", m.lift},
            {"rise_m", m.rise_m},
            {"held", static_cast<std::int64_t>(m.held ? 1 : 0)},
            {"hole_depth_m", HoleDepth(ip, objective.DesignOf(r.x))},
            {"best_held", static_cast<std::int64_t>(best_measures.held ? 1 : 0)},
            {"best_rise_m", best_measures.rise_m},
            {"design_parameters", static_cast<std::int64_t>(objective.dimension())},
            {"elapsed_s", trace.iterations[i].elapsed_s}};
    if (std::isfinite(r.gradient_norm)) row["gradient_norm"] = r.gradient_norm;
    rows.push_back(std::move(row));
  }
  if (rows.empty()) rows.push_back({{"record", std::string("iteration")}, {"variant", variant}});
  Row& last = rows.back();
  MarkOptimiserStop(trace, objective.last_rollout(), &last);
  // The start design and the best iterate's, each rolled out once more on a simulator of its own:
  // sdrs warm-starts each pair's plane from the step before, so in a rollout whose outcome is
  // sensitive (a grasp on the edge of slipping) the optimiser's rollout of an iterate depends on
  // the rollouts before it; a fresh simulator gives the design's rollout alone.
  std::vector<Row> extra;
  auto verify = [&](const VecX& x, const std::string& stage) {
    std::unique_ptr<Simulator> fresh = MakeSimulator(c.model, GripperScene(scene_options), c.model_options);
    Simulator& fip = AsContactPotentialModel(*fresh);
    fip.SetDesignParameters(objective.DesignOf(x));
    GripperObjective once(fip, settings.stages(), settings.timestep_s, scene_options.kp, settings.push_weight,
                          settings.lift_weight);
    if (!std::isfinite(once.Evaluate(VecX::Zero(once.dimension()), nullptr))) return;
    const GripperMeasures& m = once.records().back().measures;
    last[stage + "_held"] = static_cast<std::int64_t>(m.held ? 1 : 0);
    last[stage + "_rise_m"] = m.rise_m;
    last[stage + "_loss"] = once.records().back().loss;
    if (stage == "optimised") last["min_distance_m"] = MinimumHullDistance(fip, once.last_rollout().states);
    AppendPath(fip.scene(), once.loss(), once.last_rollout().states, stage, &extra);
    AppendDesignRows(fip, fip.DesignParameters(), stage, variant, &extra);
  };
  verify(start, "initial");
  if (trace.best_x.size() == objective.dimension()) verify(trace.best_x, "optimised");
  rows.insert(rows.end(), extra.begin(), extra.end());
  return rows;
}

// ours: whether the best iterate's jaw held the X, without_hole: whether the start design's did
// (each on a fresh simulator, the last iteration row's optimised_held and initial_held).
std::vector<ClaimResult> GrippersExperiment::Summarize(const ResultTable& table) const {
  const ResultTable rows = table.Filter("model", "sdrs").Filter("record", "iteration").Filter("variant", "codesign");
  if (rows.num_rows() == 0 || !rows.Text(rows.num_rows() - 1, "failure").empty()) return {};
  const int n = rows.num_rows() - 1;
  if (!std::isfinite(rows.Number(n, "optimised_held")) || !std::isfinite(rows.Number(n, "initial_held"))) return {};
  ClaimResult r{"grippers.topology_success"};
  r.ours = rows.Number(n, "optimised_held");
  r.values["without_hole"] = rows.Number(n, "initial_held");
  const double first = rows.Number(0, "loss");
  r.values["loss_ratio"] = first > 0.0 ? rows.Number(n, "best_loss") / first : std::numeric_limits<double>::quiet_NaN();
  r.values["rise_m"] = rows.Number(n, "optimised_rise_m");
  r.values["without_hole_rise_m"] = rows.Number(n, "initial_rise_m");
  r.values["optimiser_held"] = rows.Number(n, "best_held");
  r.values["min_distance_m"] = rows.Number(n, "min_distance_m");
  double depth = rows.Number(0, "hole_depth_m");
  for (int i = 0; i <= n; ++i) {
    if (rows.Number(i, "loss") == rows.Number(n, "best_loss")) depth = rows.Number(i, "hole_depth_m");
  }
  r.values["hole_depth_m"] = depth;
  r.note = "sdrs, " + rows.Text(0, "iterations") + " Adam iterations on the jaw's shape: the best iterate (loss " +
           FormatShort(r.values["loss_ratio"]) + " of the start's, its middle block " + FormatShort(depth) +
           " m behind the front face) lifts the X by " + FormatShort(r.values["rise_m"]) +
           " m, the start design (no hole) by " + FormatShort(r.values["without_hole_rise_m"]) +
           " m (fresh rollouts; held = rise >= half the jaw's 0.15 m lift; in the optimiser's own rollout of the best "
           "iterate held = " + FormatShort(r.values["optimiser_held"]) + ")";
  return {r};
}

std::vector<Observation> GrippersExperiment::Observe(const ResultTable& table) const {
  std::vector<Observation> out = CodesignLossRatios(table);
  const ResultTable iterations = table.Filter("record", "iteration");
  for (const std::string& model : iterations.Distinct("model")) {
    const ResultTable t = iterations.Filter("model", model);
    const double rise = t.Number(t.num_rows() - 1, "best_rise_m");
    if (std::isfinite(rise)) out.push_back({"rise_m", model, rise, "m", "the best iterate's lift of the X"});
  }
  return out;
}

}  // namespace arena
