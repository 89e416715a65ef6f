#include "experiments/chain_reach/chain_reach.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <memory>

#include "config/profile_config.h"
#include "experiments/result_table.h"
#include "core/common/error.h"
#include "core/common/strings.h"
#include "core/multibody/kinematics.h"
#include "experiments/chain_reach/chain_reach_task.h"
#include "experiments/common/settings/adam_config.h"
#include "experiments/common/settings/settings.h"
#include "experiments/common/sweeps/codesign_sweep.h"
#include "experiments/common/meters/hull_distances.h"
#include "experiments/common/meters/potential_timing.h"
#include "experiments/common/meters/recording_objective.h"
#include "experiments/common/sweeps/sweep_limits.h"
#include "experiments/common/summaries/table_stats.h"
#include "models/registry.h"
#include "solvers/first_order_optimizers.h"

namespace arena {

namespace chain_reach_detail {

constexpr const char* kDesignedChain = "chain0_";  // the left chain's links (Fig. 10: its attachment points)

// The left chain's length: its joints' attachment offsets (they follow the design) and the tip's.
double ChainLength(const Scene& scene, int links, const Vec3& tip_local) {
  double length = tip_local.norm();
  for (int l = 1; l < links; ++l) {
    const int swing = scene.model.FindBody("chain0_link" + std::to_string(l) + "/swing");
    length += scene.model.body(swing).joint.placement.translation().norm();
  }
  return length;
}

// The final pose of every chain (each link's joint, then the chain's tip) and the target.
void AppendPose(const Scene& scene, const State& end, const ReachingChains& chains, int links, const std::string& variant,
                std::vector<Row>* rows) {
  MultibodyData data(scene.model);
  ForwardKinematics(scene.model, data, end.q);
  for (int c = 0; c < 3; ++c) {
    for (int l = 0; l <= links; ++l) {
      const int body = scene.model.FindBody("chain" + std::to_string(c) + "_link" + std::to_string(std::min(l, links - 1)));
      const Vec3 p = l < links ? data.X_WB[body].translation() : data.X_WB[body].Act(chains.tip_local);
      rows->push_back({{"record", std::string("pose")}, {"variant", variant}, {"chain", static_cast<std::int64_t>(c)},
                       {"joint", static_cast<std::int64_t>(l)}, {"x_m", p.x()}, {"z_m", p.z()}});
    }
  }
  rows->push_back({{"record", std::string("target")}, {"variant", variant}, {"x_m", chains.target.x()},
                   {"z_m", chains.target.z()}});
}

// Every case's parameters; chain_reach's config keys besides models, variants and the sdrs options.
struct ChainReachSettings {
  std::int64_t links = 0;
  std::int64_t cap_points = 0;
  double timestep_s = 0.01;
  std::int64_t steps = 0;
  std::int64_t iterations = 0;
  AdamSettings adam;
  double reach_tolerance_m = 0.0;

  template <class V>
  void VisitFields(V&& v) {
    v("links", links, "links per chain (three chains)", "", Closed(1, 50));
    v("cap_points", cap_points, "hull points on each cap of a link", "", Closed(4, 64));
    v("timestep_s", timestep_s, "step length (s)", "s", Closed(1e-4, 0.1));
    v("steps", steps, "horizon: the loss is at its last state", "", Closed(1, kMaxStepsPerCase));
    v("iterations", iterations, "Adam iterations", "", Closed(1, kMaxIterationsPerCase));
    adam.VisitFields(v);
    v("reach_tolerance_m", reach_tolerance_m, "the tip reaches the target within this distance", "m", Closed(0.0, 10.0));
  }

  ReachingChainsOptions scene() const { return {.links = static_cast<int>(links), .cap_points = static_cast<int>(cap_points)}; }
};

}  // namespace chain_reach_detail

std::vector<Column> ChainReachExperiment::columns() const {
  std::vector<Column> columns = {
      {"variant", "control (the base's 4 spline coefficients) or codesign (and the left chain's shape)", false,
       ColumnType::kText}};
  const std::vector<Column> params = ParamColumns<chain_reach_detail::ChainReachSettings>();
  columns.insert(columns.end(), params.begin(), params.end());
  const std::vector<Column> rows = {
      {"design_parameters", "decision variables beyond the 4 coefficients (the designed hulls' vertex coordinates)"},
      {"record", "iteration (one Adam iteration), pose (a joint or tip of the best iterate's final state) or target",
       false, ColumnType::kText},
      {"iteration", "iteration: 0 = the start (zero coefficients, the initial shape)"},
      {"loss", "iteration: |tip - target|^2 of this iterate (m^2; inf: its rollout failed)"},
      {"best_loss", "iteration: the best loss so far"},
      {"tip_distance_m", "iteration: |tip - target| of this iterate"},
      {"best_distance_m", "iteration: the best distance so far"},
      {"chain_length_m", "iteration: the left chain's length, joint to joint and to its tip"},
      {"gradient_norm", "iteration: |dL/dx|"},
      {"elapsed_s", "iteration: wall-clock time since the optimiser started", true},
      {"stop", "last iteration row: why Adam stopped", false, ColumnType::kText},
      {"min_distance_m", "last iteration row: the smallest hull-hull distance over the best iterate's rollout (m; 0: "
                         "touching, which the barrier forbids)"},
      {"failure", "last iteration row: why the run failed", false, ColumnType::kText},
      {"chain", "pose: 0 the driven chain, 1 and 2 the hanging ones"},
      {"joint", "pose: 0..links-1 the links' joints, links the tip"},
      {"x_m", "pose, target: x"},
      {"z_m", "pose, target: z"},
  };
  columns.insert(columns.end(), rows.begin(), rows.end());
  return columns;
}

Sweep ChainReachExperiment::Expand(const ProfileConfig& config, const std::vector<std::string>& models) const {
  const auto settings = ReadSettings<chain_reach_detail::ChainReachSettings>(config);
  CodesignSweepSpec spec;
  spec.experiment = name();
  spec.scene = ReachingChainsScene(settings.scene()).scene;
  spec.variants = ReadCodesignVariants(config);
  spec.timestep = settings.timestep_s;
  spec.designed = chain_reach_detail::kDesignedChain;
  spec.params = CaseParams(settings);
  return ExpandCodesignSweep(config, models, spec);
}

std::vector<Row> ChainReachExperiment::Run(const Case& c) const {
  using namespace chain_reach_detail;
  const auto settings = DecodeSettings<ChainReachSettings>(c);
  const int links = static_cast<int>(settings.links);
  const std::string variant = DecodeSettings<CodesignCase>(c).variant;
  const ReachingChains chains = ReachingChainsScene(settings.scene());
  std::unique_ptr<Simulator> sim = MakeSimulator(c.model, chains.scene, c.model_options);
  Simulator& ip = AsContactPotentialModel(*sim);
  ChainReachObjective objective(ip, chains, static_cast<int>(settings.steps), variant == "codesign");
  RecordingObjective recording(objective);
  const AdamOptions adam = settings.adam.options();
  OptimizerBudget budget;
  budget.max_iterations = settings.iterations;
  budget.threshold = 0.0;
  const OptimizerTrace trace = MinimizeAdam(recording, objective.Start(), adam, budget);

  std::vector<Row> rows;
  const auto& records = recording.records();
  const int np = objective.dimension() - 4;
  for (size_t i = 0; i < trace.iterations.size() && i < records.size(); ++i) {
    const RecordingObjective::Record& r = records[i];
    if (np > 0) ip.SetDesignParameters(r.x.tail(np));
    Row row{{"record", std::string("iteration")},
            {"iteration", trace.iterations[i].iteration},
            {"loss", r.loss},
            {"best_loss", trace.iterations[i].loss},
            {"tip_distance_m", std::sqrt(r.loss)},
            {"best_distance_m", std::sqrt(trace.iterations[i].loss)},
            {"chain_length_m", ChainLength(ip.scene(), links, chains.tip_local)},
            {"design_parameters", static_cast<std::int64_t>(np)},
            {"elapsed_s", trace.iterations[i].elapsed_s}};
    if (std::isfinite(r.gradient_norm)) row["gradient_norm"] = r.gradient_norm;
    rows.push_back(std::move(row));
  }
  if (rows.empty()) rows.push_back({{"record", std::string("iteration")}});
  Row& last = rows.back();
  MarkOptimiserStop(trace, objective.last_rollout(), &last);
  if (trace.best_x.size() == objective.dimension() && std::isfinite(objective.Evaluate(trace.best_x, nullptr))) {
    const std::vector<State>& states = objective.last_rollout().states;
    last["min_distance_m"] = MinimumHullDistance(ip, states);
    AppendPose(ip.scene(), states.back(), chains, links, variant, &rows);
  }
  return rows;
}

std::vector<ClaimResult> ChainReachExperiment::Summarize(const ResultTable& table) const {
  const ResultTable sdrs = table.Filter("model", "sdrs");
  const double codesign = FinalIterationValue(sdrs, "codesign", "best_distance_m");
  const double control = FinalIterationValue(sdrs, "control", "best_distance_m");
  if (std::isnan(codesign) || std::isnan(control)) return {};
  const ResultTable rows = sdrs.Filter("record", "iteration").Filter("variant", "codesign");
  ClaimResult r{"chain_reach.codesign_reaches"};
  r.ours = codesign;
  r.values["control_only_distance_m"] = control;
  r.values["reach_tolerance_m"] = rows.Number(0, "reach_tolerance_m");
  r.note = "sdrs, best tip-target distance after " + rows.Text(0, "iterations") + " Adam iterations of " +
           rows.Text(0, "steps") + " steps: co-design " + FormatShort(codesign) + " m, control only " + FormatShort(control) +
           " m; the left chain " + FormatShort(rows.Number(0, "chain_length_m")) + " m long at the start, " +
           FormatShort(rows.Number(rows.num_rows() - 1, "chain_length_m")) + " m at the last iterate";
  return {r};
}

std::vector<Observation> ChainReachExperiment::Observe(const ResultTable& table) const {
  return CodesignLossRatios(table);
}

}  // namespace arena
