#include "experiments/registry.h"
#include "core/common/strings.h"

#include "core/common/error.h"
#include "experiments/ablations/ablations.h"
#include "experiments/ant_push/ant_push.h"
#include "experiments/billiards/billiards.h"
#include "experiments/book_stacking/book_stacking.h"
#include "experiments/box_drop/box_drop.h"
#include "experiments/chain_cost/chain_cost.h"
#include "experiments/chain_reach/chain_reach.h"
#include "experiments/spider/spider.h"
#include "experiments/grippers/grippers.h"
#include "experiments/biped/biped.h"
#include "experiments/convex_bundles/convex_bundles.h"
#include "experiments/drone_liftoff/drone_liftoff.h"
#include "experiments/force_profile/force_profile.h"
#include "experiments/tpush/tpush.h"
#include "experiments/gradient_truth/gradient_truth.h"
#include "experiments/grasp/grasp.h"
#include "experiments/jacobians/jacobians.h"
#include "experiments/lcp_warmstart/lcp_warmstart.h"
#include "experiments/peg_in_hole/peg_in_hole.h"
#include "experiments/potential_cost/potential_cost.h"
#include "experiments/potential_scaling/potential_scaling.h"
#include "experiments/rod_tasks/rod_tasks.h"
#include "experiments/solve_time/solve_time.h"
#include "experiments/ssdf_iso/ssdf_iso.h"
#include "experiments/solver_compare/solver_compare.h"
#include "experiments/stacking/stacking.h"
#include "experiments/trajopt_compare/trajopt_compare.h"

namespace arena {

const std::vector<std::unique_ptr<Experiment>>& Experiments() {
  static const std::vector<std::unique_ptr<Experiment>> experiments = [] {
    // By seed (000 ... 004), then the experiments of no single paper: the report lists the
    // claims in this order.
    std::vector<std::unique_ptr<Experiment>> list;
    list.push_back(std::make_unique<BoxDropExperiment>());
    list.push_back(std::make_unique<StackingExperiment>());
    list.push_back(std::make_unique<BookStackingExperiment>());
    list.push_back(std::make_unique<SolveTimeExperiment>());
    list.push_back(std::make_unique<PegInHoleExperiment>());
    list.push_back(std::make_unique<ConvexBundlesExperiment>());
    list.push_back(std::make_unique<GraspExperiment>());
    list.push_back(std::make_unique<ForceProfileExperiment>());
    list.push_back(std::make_unique<SsdfIsoExperiment>());
    list.push_back(std::make_unique<TPushExperiment>());
    list.push_back(std::make_unique<JacobiansExperiment>());
    list.push_back(std::make_unique<LcpWarmstartExperiment>());
    list.push_back(std::make_unique<DroneLiftoffExperiment>());
    list.push_back(std::make_unique<TrajoptCompareExperiment>());
    list.push_back(std::make_unique<PotentialCostExperiment>());
    list.push_back(std::make_unique<ChainCostExperiment>());
    list.push_back(std::make_unique<ChainReachExperiment>());
    list.push_back(std::make_unique<SpiderExperiment>());
    list.push_back(std::make_unique<BipedExperiment>());
    list.push_back(std::make_unique<GrippersExperiment>());
    list.push_back(std::make_unique<BilliardsExperiment>());
    list.push_back(std::make_unique<PotentialScalingExperiment>());
    list.push_back(std::make_unique<RodTaskExperiment>("push"));
    list.push_back(std::make_unique<RodTaskExperiment>("gather"));
    list.push_back(std::make_unique<RodTaskExperiment>("sort"));
    list.push_back(std::make_unique<AntPushExperiment>());
    list.push_back(std::make_unique<AblationsExperiment>());
    list.push_back(std::make_unique<SolverCompareExperiment>());
    list.push_back(std::make_unique<GradientTruthExperiment>());
    return list;
  }();
  return experiments;
}

const Experiment& FindExperiment(std::string_view name) {
  for (const auto& e : Experiments()) {
    if (e->name() == name) return *e;
  }
  throw InvalidArgument("unknown experiment '" + std::string(name) +
                        "'; registered experiments: " + Join(ExperimentNames()));
}

std::vector<std::string> ExperimentNames(const std::vector<std::unique_ptr<Experiment>>& experiments) {
  std::vector<std::string> names;
  for (const auto& e : experiments) names.push_back(e->name());
  return names;
}

}  // namespace arena
