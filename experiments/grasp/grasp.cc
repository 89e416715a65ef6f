#include "experiments/grasp/grasp.h"

#include <cmath>
#include <memory>
#include <string>

#include "config/profile_config.h"
#include "experiments/result_table.h"
#include "core/common/error.h"
#include "core/common/options.h"
#include "experiments/common/settings/settings.h"
#include "experiments/common/sweeps/model_sweep.h"
#include "experiments/common/sweeps/sweep_limits.h"
#include "experiments/common/summaries/table_stats.h"
#include "experiments/grasp/grasp_task.h"
#include "models/option_ranges.h"
#include "models/registry.h"
#include "scenes/silico_scenes.h"

namespace arena {
namespace {

// The relaxation option the smoothed model's metric changes ("" when the model has none: its
// metric uses its own gradients).
std::string RelaxationOption(const std::string& model) {
  for (const OptionInfo& o : FindModel(model).options()) {
    if (o.key == "rho") return o.key;
  }
  return "";
}

// The quasi-static step's ranges (a model's own under by_model.<model> has the same).
constexpr Range kQuasiStaticTimestep = kTimestepRange;
constexpr Range kQuasiStaticSubsteps = Closed(1, kMaxStepsPerCase);

// The config's keys and a case's parameters.
struct GraspSettings {
  std::int64_t seeds = 0;
  double smoothing_rho = 0.0;
  std::int64_t sample = 0;
  std::string fingertips;
  double timestep_s = 0.0;
  std::string smoothing;
  std::int64_t iterations = 0;
  double metric_regularizer = 0.0;
  double extension = 0.0;
  double goal_probability = 0.0;
  double contact_probability = 0.0;
  double goal_distance = 0.0;
  std::int64_t substeps = 1;

  template <class V>
  void VisitFields(V&& v) {
    constexpr SettingRole kConfig = SettingRole::kConfig, kCase = SettingRole::kCase;
    v("seeds", seeds, "planner seeds per model and setting", "", Closed(1, kMaxIterationsPerCase), kConfig);
    v("smoothing_rho", smoothing_rho, "the metric model's relaxation value", "", kRelaxationRange, kConfig);
    v("sample", sample, "the planner's seed index (the case's seed derives from it)", "", std::nullopt, kCase);
    v("fingertips", fingertips, "octagon (ours, the default) or disk (the paper's; silico's solves stall on it)");
    v("timestep_s", timestep_s, "the model's step (one quasi-static step is `substeps` of them)", "s",
      kQuasiStaticTimestep);
    v("smoothing", smoothing, "the metric model's relaxation option and value (\"none\": the model's own gradients)",
      "", std::nullopt, kCase);
    v("iterations", iterations, "the RRT's budget K", "", Closed(1, kMaxRowsPerCase - 1));
    v("metric_regularizer", metric_regularizer, "gamma of the metric Sigma = B B^T + gamma I", "", Positive(1e6));
    v("extension", extension, "the control step of an extension", "", Positive(10.0));
    v("goal_probability", goal_probability, "chance a subgoal is the goal", "", Closed(0.0, 1.0));
    v("contact_probability", contact_probability, "chance an iteration re-grasps instead of extending", "",
      Closed(0.0, 1.0));
    v("goal_distance", goal_distance, "the metric distance at which the goal counts as reached", "", Positive(1e6));
    v("substeps", substeps, "model steps per quasi-static step", "", kQuasiStaticSubsteps);
  }

  ContactRrtOptions rrt(std::uint64_t seed) const {
    ContactRrtOptions o;
    o.iterations = static_cast<int>(iterations);
    o.metric_regularizer = metric_regularizer;
    o.extension = extension;
    o.goal_probability = goal_probability;
    o.contact_probability = contact_probability;
    o.goal_distance = goal_distance;
    o.substeps = static_cast<int>(substeps);
    o.seed = seed;
    return o;
  }
};

// A model's own quasi-static step, under by_model.<model> (MuJoCo's explicit position springs
// need short steps; quasi_static_step.h); the profile's where it has none.
struct QuasiStaticStep {
  std::optional<double> timestep_s;
  std::optional<std::int64_t> substeps;

  template <class V>
  void VisitFields(V&& v) {
    v("timestep_s", timestep_s, "the model's step", "s", kQuasiStaticTimestep, SettingRole::kConfig);
    v("substeps", substeps, "model steps per quasi-static step", "", kQuasiStaticSubsteps, SettingRole::kConfig);
  }
};

// A node's star (x, y, theta) and fingertips (x, y), at the problem's coordinates (object: the
// star's; actuated: the left fingertip's, then the right's).
Row NodeRow(const char* record, const ContactRrtProblem& problem, const ContactRrtResult& result, int index, int order) {
  const VecX& q = result.nodes[index].q;
  const std::vector<int>& star = problem.object;
  const std::vector<int>& fingers = problem.actuated;
  Row row{{"record", std::string(record)},
          {"node", index},
          {"parent", result.nodes[index].parent},
          {"star_x_m", q[star[0]]},
          {"star_y_m", q[star[1]]},
          {"star_theta_rad", q[star[2]]},
          {"left_x_m", q[fingers[0]]},
          {"left_y_m", q[fingers[1]]},
          {"right_x_m", q[fingers[3]]},
          {"right_y_m", q[fingers[4]]}};
  if (order >= 0) row["step"] = order;
  return row;
}

}  // namespace

std::vector<Column> GraspExperiment::columns() const {
  std::vector<Column> columns = ParamColumns<GraspSettings>();
  const std::vector<Column> rows = {
      {"record", "plan (one per case), path (the plan's nodes in order) or tree (every node; first seed only)", false,
       ColumnType::kText},
      {"success", "plan: the goal is within goal_distance of a node's metric", false, ColumnType::kBool},
      {"planning_time_s", "plan: wall time of the RRT (every step, metric and search)", true},
      {"iterations_run", "plan: RRT iterations until success or the budget"},
      {"nodes", "plan: nodes in the tree"},
      {"path_nodes", "plan: nodes from the start to the node nearest the goal"},
      {"goal_metric", "plan: that node's metric distance to the goal (success when <= goal_distance)"},
      {"position_error_m", "plan: that node's star position from the goal's"},
      {"angle_error_rad", "plan: that node's star angle from the goal's"},
      {"failed_steps", "plan: extensions or re-grasps whose quasi-static step failed (no node added)"},
      {"failed_metrics", "plan: new nodes whose smoothed step failed (not added)"},
      {"failure", "plan: the first failed step's reason", false, ColumnType::kText},
      {"node", "path, tree: the node's index in the tree"},
      {"parent", "path, tree: its parent's (-1: the start)"},
      {"step", "path: the node's position along the path"},
      {"star_x_m", "path, tree: the star's x"},
      {"star_y_m", "path, tree: the star's y"},
      {"star_theta_rad", "path, tree: the star's angle"},
      {"left_x_m", "path, tree: the left fingertip's x"},
      {"left_y_m", "path, tree: the left fingertip's y"},
      {"right_x_m", "path, tree: the right fingertip's x"},
      {"right_y_m", "path, tree: the right fingertip's y"},
  };
  columns.insert(columns.end(), rows.begin(), rows.end());
  return columns;
}

Sweep GraspExperiment::Expand(const ProfileConfig& config, const std::vector<std::string>& models) const {
  const auto settings = ReadSettings<GraspSettings>(config);
  if (settings.fingertips != "octagon" && settings.fingertips != "disk") {
    throw InvalidArgument(config.file() + ": key fingertips: unknown '" + settings.fingertips + "'; valid: octagon, disk");
  }
  CheckSweepSize(config, name(),
                 {{"models", static_cast<double>(models.size())}, {"seeds", static_cast<double>(settings.seeds)}});
  const std::shared_ptr<const Scene> scene = GraspScene({.disk_fingertips = settings.fingertips == "disk"});
  Sweep sweep;
  for (const std::string& model : models) {
    const auto own = ReadSettings<QuasiStaticStep>(config, "by_model." + model + ".");
    GraspSettings one = settings;
    one.timestep_s = own.timestep_s.value_or(settings.timestep_s);
    one.substeps = own.substeps.value_or(settings.substeps);
    for (const ModelSetting& setting : ExpandModelSweep(config, model, {"timestep"}, "set timestep_s instead")) {
      const Capabilities caps = FindModel(model).capabilities_for(setting.options);
      if (std::string why = CheckGradientSupport(caps, *scene); !why.empty()) {
        sweep.notes.push_back(model + ": skipped (" + why + ")");
        continue;
      }
      const std::string relaxation = RelaxationOption(model);
      one.smoothing = relaxation.empty() ? std::string("none")
                                         : relaxation + "=" + options_detail::FormatDouble(settings.smoothing_rho);
      for (std::int64_t k = 0; k < settings.seeds; ++k) {
        Case c;
        c.index = static_cast<int>(sweep.cases.size());
        c.model = model;
        c.id = model + setting.IdSuffix() + "/seed=" + std::to_string(k);
        c.model_options = setting.options;
        c.model_options["timestep"] = options_detail::FormatDouble(one.timestep_s);
        one.sample = k;
        c.params = CaseParams(one);
        c.seed = DeriveSeed(name(), c.id);
        sweep.cases.push_back(std::move(c));
      }
    }
  }
  return sweep;
}

std::vector<Row> GraspExperiment::Run(const Case& c) const {
  const auto settings = DecodeSettings<GraspSettings>(c);
  const std::shared_ptr<const Scene> scene = GraspScene({.disk_fingertips = settings.fingertips == "disk"});
  std::unique_ptr<Simulator> dynamics = MakeSimulator(c.model, scene, c.model_options);
  OptionMap smoothed_options = c.model_options;
  if (const std::string& smoothing = settings.smoothing; smoothing != "none") {
    const size_t eq = smoothing.find('=');
    smoothed_options[smoothing.substr(0, eq)] = smoothing.substr(eq + 1);
  }
  std::unique_ptr<Simulator> smoothed = MakeSimulator(c.model, scene, smoothed_options);
  const ContactRrtProblem problem = GraspProblem(*scene);
  ContactRrt rrt(*dynamics, *smoothed, problem, settings.rrt(c.seed));
  const VecX start = DefaultState(*scene).q;
  const ContactRrtResult result = rrt.Plan(start);

  const VecX& end = result.path.empty() ? start : result.nodes[result.path.back()].q;
  Row plan{{"record", std::string("plan")},
           {"success", result.success},
           {"planning_time_s", result.seconds},
           {"iterations_run", result.iterations},
           {"nodes", static_cast<std::int64_t>(result.nodes.size())},
           {"path_nodes", static_cast<std::int64_t>(result.path.size())},
           {"goal_metric", result.goal_distance},
           {"position_error_m", GraspPositionError(problem, end)},
           {"angle_error_rad", GraspAngleError(problem, end)},
           {"failed_steps", result.failed_steps},
           {"failed_metrics", result.failed_metrics}};
  if (!result.first_failure.empty()) plan["failure"] = result.first_failure;
  std::vector<Row> rows{plan};
  for (size_t i = 0; i < result.path.size(); ++i) {
    rows.push_back(NodeRow("path", problem, result, result.path[i], static_cast<int>(i)));
  }
  if (settings.sample == 0) {
    for (size_t i = 0; i < result.nodes.size(); ++i) rows.push_back(NodeRow("tree", problem, result, static_cast<int>(i), -1));
  }
  return rows;
}

namespace {

ResultTable Plans(const ResultTable& table) { return table.Filter("record", "plan"); }

double SuccessRate(const ResultTable& plans) {
  if (plans.num_rows() == 0) return std::nan("");
  return static_cast<double>(plans.FilterBool("success", true).num_rows()) / plans.num_rows();
}

// Failed steps and metrics per iteration run.
double FailedStepFraction(const ResultTable& plans) {
  double failed = 0.0, run = 0.0;
  for (int i = 0; i < plans.num_rows(); ++i) {
    failed += plans.Number(i, "failed_steps") + plans.Number(i, "failed_metrics");
    run += plans.Number(i, "iterations_run");
  }
  return run > 0.0 ? failed / run : std::nan("");
}

// The start's errors from the goal (m, rad): the scale of Progress.
struct StartErrors {
  double position = 0.0;
  double angle = 0.0;
};

StartErrors StartErrorsOfTheScene() {
  const std::shared_ptr<const Scene> scene = GraspScene();
  const ContactRrtProblem problem = GraspProblem(*scene);
  const VecX start = DefaultState(*scene).q;
  return {GraspPositionError(problem, start), GraspAngleError(problem, start)};
}

// How far the plans' path ends are from the goal, as a fraction of the start's distance (median
// over the seeds; 1: the star did not move towards it).
std::string Progress(const ResultTable& plans, const StartErrors& start) {
  return "the path ends at " + FormatShort(Median(plans, "position_error_m") / start.position) +
         " of the start's position error and " + FormatShort(Median(plans, "angle_error_rad") / start.angle) +
         " of its angle error";
}

}  // namespace

std::vector<ClaimResult> GraspExperiment::Summarize(const ResultTable& table) const {
  const ResultTable silico = Plans(table).Filter("model", "silico");
  if (silico.num_rows() == 0) return {};
  const ResultTable solved = silico.FilterBool("success", true);
  ClaimResult r{"grasp.planning_time_s"};
  r.ours = Median(solved, "planning_time_s");
  r.values["success_rate"] = SuccessRate(silico);
  const double failed = FailedStepFraction(silico);
  r.values["failed_step_fraction"] = failed;
  if (solved.num_rows() == 0) r.ours_text = "no plan: 0 of " + std::to_string(silico.num_rows()) + " seeds reached the goal";
  r.note = "silico (" + silico.Text(0, "smoothing") + ", " + silico.Text(0, "fingertips") + " fingertips): " +
           std::to_string(solved.num_rows()) + " of " + std::to_string(silico.num_rows()) +
           " seeds reach the goal within " + silico.Text(0, "iterations") +
           " iterations (the median planning time of those); " + FormatShort(100.0 * failed) +
           " % of the quasi-static steps failed (the interior point stalled)";
  const StartErrors start = StartErrorsOfTheScene();
  r.note += "; " + Progress(silico, start);
  for (const std::string& model : Plans(table).Distinct("model")) {
    if (model == "silico") continue;
    const ResultTable plans = Plans(table).Filter("model", model);
    const ResultTable reached = plans.FilterBool("success", true);
    r.note += "; " + model + ": " + std::to_string(reached.num_rows()) + " of " + std::to_string(plans.num_rows()) +
              " seeds reach the goal";
    if (reached.num_rows() > 0) r.note += " (median " + FormatShort(Median(reached, "planning_time_s")) + " s)";
    r.note += ", " + Progress(plans, start);
  }
  return {r};
}

std::vector<Observation> GraspExperiment::Observe(const ResultTable& table) const {
  std::vector<Observation> out;
  for (const std::string& model : Plans(table).Distinct("model")) {
    const ResultTable plans = Plans(table).Filter("model", model);
    const std::string seeds = std::to_string(plans.num_rows()) + " seeds";
    out.push_back({"success_rate", model, SuccessRate(plans), "", seeds});
    out.push_back({"median_iterations", model, Median(plans, "iterations_run"), "", seeds});
    out.push_back({"failed_step_fraction", model, FailedStepFraction(plans), "", "failed steps and metrics per iteration"});
    out.push_back({"median_position_error_m", model, Median(plans, "position_error_m"), "m", "the path's end, " + seeds});
  }
  return out;
}

}  // namespace arena
