#include "experiments/peg_in_hole/peg_in_hole.h"

#include "experiments/common/summaries/table_stats.h"
#include "experiments/result_table.h"
#include "scenes/silico_scenes.h"

namespace arena {

std::shared_ptr<const Scene> PegInHoleExperiment::MakeScene() const { return PegInHoleScene(); }

State PegInHoleExperiment::InitialState() const { return DefaultState(*MakeScene()); }

std::vector<ClaimResult> PegInHoleExperiment::Summarize(const ResultTable& table) const {
  std::vector<ClaimResult> out;
  const ResultTable silico = table.Filter("model", "silico");
  if (silico.num_rows() == 0) return out;
  // The final snapshot of the (first) silico rollout.
  int last = 0;
  for (int i = 0; i < silico.num_rows(); ++i) {
    if (silico.Number(i, "frame") >= silico.Number(last, "frame")) last = i;
  }
  ClaimResult r{"peg_in_hole.contact_points"};
  r.ours = silico.Number(last, "contacts_geometric");
  const double reported = silico.Number(last, "contacts_reported");
  const double penetration = silico.Number(last, "max_penetration_m");
  r.note = "final frame: " + FormatValue(r.ours) + " pairs within 1 mm, " + FormatValue(reported) +
           " reported active by silico; max penetration " + FormatValue(penetration) + " m; failed steps " +
           silico.Text(last, "failed_steps");
  if (const std::string failure = silico.Text(last, "failure"); !failure.empty()) r.note += "; the rollout failed " + failure;
  r.values["max_penetration_m"] = penetration;
  out.push_back(r);
  return out;
}

}  // namespace arena
