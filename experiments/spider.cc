#include "experiments/spider.h"

#include <cmath>
#include <limits>
#include <memory>
#include <string>

#include "config/profile_config.h"
#include "config/result_table.h"
#include "core/common/error.h"
#include "experiments/common/adam_config.h"
#include "experiments/common/case_params.h"
#include "experiments/common/codesign_sweep.h"
#include "experiments/common/design_file.h"
#include "experiments/common/hull_distances.h"
#include "experiments/common/potential_timing.h"
#include "experiments/common/recording_objective.h"
#include "experiments/common/sweep_limits.h"
#include "experiments/common/table_stats.h"
#include "experiments/spider_task.h"
#include "models/registry.h"
#include "scenes/spider_scenes.h"
#include "solvers/first_order_optimizers.h"

namespace arena {

namespace spider_detail {

SpiderTaskOptions TaskOptionsOf(const Case& c) {
  SpiderTaskOptions o;
  o.steps = static_cast<int>(ParamNumber(c, "steps"));
  o.timestep = ParamNumber(c, "timestep_s");
  o.terms = static_cast<int>(ParamNumber(c, "terms"));
  o.target_distance = ParamNumber(c, "target_distance_m");
  o.initial_amplitude = ParamNumber(c, "initial_amplitude_rad");
  return o;
}

}  // namespace spider_detail

std::vector<Column> SpiderExperiment::columns() const {
  return {
      {"variant", "control (the sines of the 12 leg DOFs) or codesign (and the feet's hulls)", false, ColumnType::kText},
      {"timestep_s", "step length (s)"},
      {"steps", "horizon: the loss is at its last state"},
      {"terms", "sines per leg DOF"},
      {"iterations", "Adam iterations"},
      {"learning_rate", "Adam's step size"},
      {"adam_beta1", "Adam's first-moment decay"},
      {"adam_beta2", "Adam's second-moment decay"},
      {"slope_deg", "the slope (gravity tilted; down the slope is +x)"},
      {"target_distance_m", "the target's distance down the slope from the start"},
      {"initial_amplitude_rad", "every sine's amplitude at the start"},
      {"design", "the start design's file (arena export-design's OBJ; empty: the scene's feet)", false, ColumnType::kText},
      {"design_parameters", "decision variables beyond the sines (the feet's hull vertex coordinates)"},
      {"record", "iteration (one Adam iteration) or design (a vertex of a foot hull)", false, ColumnType::kText},
      {"iteration", "iteration: 0 = the start"},
      {"loss", "iteration: |(x, y)_root(T) - target|^2 of this iterate (m^2; inf: its rollout failed)"},
      {"best_loss", "iteration: the best loss so far"},
      {"distance_m", "iteration: how far this iterate's spider walked down the slope (root x, end - start)"},
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
      {"x_m", "design: x in the lower leg's frame (along the leg)"},
      {"y_m", "design: y in the lower leg's frame"},
      {"z_m", "design: z in the lower leg's frame"},
  };
}

Sweep SpiderExperiment::Expand(const ProfileConfig& config, const std::vector<std::string>& models) const {
  const double dt = config.Double("timestep_s", NumberRange::Between(1e-4, 0.1));
  const std::int64_t steps = config.Int("steps", 1, kMaxStepsPerCase);
  const std::int64_t terms = config.Int("terms", 1, 16);
  const std::int64_t iterations = config.Int("iterations", 1, kMaxIterationsPerCase);
  const AdamOptions adam = ReadAdamOptions(config);
  const double slope = config.Double("slope_deg", NumberRange::Between(0.0, 44.0));
  const double target = config.Double("target_distance_m", NumberRange::Between(0.0, 100.0));
  const double amplitude = config.Double("initial_amplitude_rad", NumberRange::Between(0.0, 1.5));
  const std::string design = config.String("design");
  if (!design.empty()) ReadDesignFile(design);  // a bad file fails the sweep here, naming the file and line
  CodesignSweepSpec spec;
  spec.experiment = name();
  spec.scene = SpiderScene({.slope_deg = slope});
  spec.variants = ReadCodesignVariants(config);
  spec.timestep = dt;
  spec.designed = kSpiderFootPrefix;
  spec.params = {{"timestep_s", dt},
                 {"steps", steps},
                 {"terms", terms},
                 {"iterations", iterations},
                 {"learning_rate", adam.learning_rate},
                 {"adam_beta1", adam.beta1},
                 {"adam_beta2", adam.beta2},
                 {"slope_deg", slope},
                 {"target_distance_m", target},
                 {"initial_amplitude_rad", amplitude},
                 {"design", design}};
  Sweep sweep = ExpandCodesignSweep(config, models, spec);
  // A start design needs the design parameters in the control variant too (not optimised there).
  for (Case& c : sweep.cases) {
    if (design.empty() || !DesignsHulls(c.model)) continue;
    c.model_options["design_derivatives"] = "true";
    c.model_options["design_colliders"] = kSpiderFootPrefix;
  }
  return sweep;
}

std::vector<Row> SpiderExperiment::Run(const Case& c) const {
  using namespace spider_detail;
  const std::string variant = ParamText(c, "variant");
  const auto scene = SpiderScene({.slope_deg = ParamNumber(c, "slope_deg")});
  std::unique_ptr<Simulator> sim = MakeSimulator(c.model, scene, c.model_options);
  IncrementalPotentialSimulator& ip = AsContactPotentialModel(*sim);
  if (const std::string design = ParamText(c, "design"); !design.empty()) ip.SetDesignParameters(DesignFromFile(ip, design));
  SpiderObjective objective(ip, TaskOptionsOf(c), variant == "codesign");
  // The walk of every evaluation, in order (Adam: one evaluation per iteration).
  std::vector<double> walks;
  class WalkRecorder final : public Objective {
   public:
    WalkRecorder(SpiderObjective& inner, std::vector<double>* walks) : inner_(inner), walks_(walks) {}
    int dimension() const override { return inner_.dimension(); }
    double Evaluate(const VecX& x, VecX* gradient) override {
      const double f = inner_.Evaluate(x, gradient);
      walks_->push_back(inner_.walk());
      return f;
    }
    std::int64_t evaluations() const override { return inner_.evaluations(); }
    std::int64_t gradient_evaluations() const override { return inner_.gradient_evaluations(); }

   private:
    SpiderObjective& inner_;
    std::vector<double>* walks_;
  } walk_recorder(objective, &walks);
  RecordingObjective recording(walk_recorder);
  OptimizerBudget budget;
  budget.max_iterations = static_cast<std::int64_t>(ParamNumber(c, "iterations"));
  budget.threshold = 0.0;
  const VecX start = objective.Start();
  const OptimizerTrace trace = MinimizeAdam(recording, start, AdamOptionsOf(c), budget);

  std::vector<Row> rows;
  const auto& records = recording.records();
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
    if (np > 0) {
      AppendDesignRows(ip, objective.DesignOf(start), "initial", variant, &rows);
      AppendDesignRows(ip, objective.DesignOf(trace.best_x), "optimised", variant, &rows);
    }
  }
  return rows;
}

std::vector<ClaimResult> SpiderExperiment::Summarize(const ResultTable& table) const {
  const ResultTable sdrs = table.Filter("model", "sdrs");
  const double codesign = FinalIterationValue(sdrs, "codesign", "best_distance_m");
  const double control = FinalIterationValue(sdrs, "control", "best_distance_m");
  if (std::isnan(codesign) || std::isnan(control)) return {};
  const ResultTable rows = sdrs.Filter("record", "iteration").Filter("variant", "codesign");
  ClaimResult r{"spider.codesign_distance_ratio"};
  r.ours = control != 0.0 ? codesign / control : std::numeric_limits<double>::quiet_NaN();
  r.values["codesign_distance_m"] = codesign;
  r.values["control_distance_m"] = control;
  r.note = "sdrs, the walk down the slope of the best iterate after " + rows.Text(0, "iterations") +
           " Adam iterations of " + rows.Text(0, "steps") + " steps: co-design " + FormatShort(codesign) +
           " m, control only " + FormatShort(control) + " m";
  return {r};
}

std::vector<Observation> SpiderExperiment::Observe(const ResultTable& table) const {
  std::vector<Observation> out = CodesignLossRatios(table);
  const ResultTable iterations = table.Filter("record", "iteration");
  for (const std::string& model : iterations.Distinct("model")) {
    for (const std::string& variant : iterations.Filter("model", model).Distinct("variant")) {
      const ResultTable t = iterations.Filter("model", model).Filter("variant", variant);
      const double walk = t.Number(t.num_rows() - 1, "best_distance_m");
      if (std::isfinite(walk)) out.push_back({"walk_m", model + " " + variant, walk, "m", "the best iterate's walk"});
    }
  }
  return out;
}

}  // namespace arena
