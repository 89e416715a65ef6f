#include "experiments/convex_bundles/convex_bundles.h"

#include "experiments/common/summaries/table_stats.h"
#include "experiments/result_table.h"
#include "scenes/silico_scenes.h"

namespace arena {

std::shared_ptr<const Scene> ConvexBundlesExperiment::MakeScene() const { return ConvexBundlesScene(); }

State ConvexBundlesExperiment::InitialState() const {
  State s = DefaultState(*MakeScene());
  s.v[0] = -1.0;  // body 1 turns at -1 rad/s (its previous velocity in the paper's script)
  return s;
}

std::vector<ClaimResult> ConvexBundlesExperiment::Summarize(const ResultTable& table) const {
  std::vector<ClaimResult> out;
  const ResultTable silico = table.Filter("model", "silico");
  if (silico.num_rows() == 0) return out;
  ClaimResult r{"convex_bundles.penetration_free"};
  double worst = 0.0, failed = 0.0;
  std::string failure;
  for (int i = 0; i < silico.num_rows(); ++i) {
    worst = std::max(worst, silico.Number(i, "max_penetration_m"));
    failed = std::max(failed, silico.Number(i, "failed_steps"));
    if (failure.empty()) failure = silico.Text(i, "failure");
  }
  r.ours = worst;
  r.ours_text = "max penetration " + FormatValue(worst) + " m, " + FormatValue(failed) + " failed steps";
  if (!failure.empty()) r.note = "the rollout failed " + failure;
  out.push_back(r);
  return out;
}

}  // namespace arena
