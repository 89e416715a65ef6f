#include "experiments/biped/biped.h"

#include <cmath>
#include <limits>
#include <string>

#include "config/profile_config.h"
#include "experiments/result_table.h"
#include "experiments/common/settings/settings.h"
#include "experiments/common/sweeps/codesign_sweep.h"
#include "experiments/common/summaries/table_stats.h"
#include "experiments/common/tasks/walker_task.h"
#include "scenes/biped_scenes.h"

namespace arena {

namespace biped_detail {

// Upright (ours): the torso within 0.5 rad of level in roll and pitch, and at most 0.25 m below
// its start (it stands about 4 cm below it).
constexpr double kMaxTilt = 0.5, kMaxSink = 0.25;

double UprightFraction(const Rollout& r) {
  if (r.states.empty()) return std::numeric_limits<double>::quiet_NaN();
  int upright = 0;
  for (const State& s : r.states) {
    upright += std::abs(s.q[kBipedRootRoll]) < kMaxTilt && std::abs(s.q[kBipedRootPitch]) < kMaxTilt &&
               s.q[kBipedRootZ] > -kMaxSink;
  }
  return static_cast<double>(upright) / static_cast<double>(r.states.size());
}

struct BipedSettings {
  WalkerSettings walker;
  double hold_weight = 0.0;
  double running_hold_weight = 0.0;

  template <class V>
  void VisitFields(V&& v) {
    walker.VisitFields(v, [&] {
      v("hold_weight", hold_weight, "weight of the torso's squared change of height, roll and pitch at the last state",
        "", Closed(0.0, 1e6));
      v("running_hold_weight", running_hold_weight, "weight of its mean over every state of the horizon", "",
        Closed(0.0, 1e6));
    });
  }
};

}  // namespace biped_detail

std::vector<Column> BipedExperiment::columns() const {
  std::vector<Column> columns = WalkerColumns(ParamColumns<biped_detail::BipedSettings>());
  columns.push_back({"upright_fraction",
                     "last iteration row: the fraction of the best rollout's states with the torso upright (roll and "
                     "pitch within 0.5 rad, at most 0.25 m below its start)"});
  return columns;
}

Sweep BipedExperiment::Expand(const ProfileConfig& config, const std::vector<std::string>& models) const {
  const auto s = ReadSettings<biped_detail::BipedSettings>(config);
  return ExpandWalkerSweep(config, models, name(), BipedScene(), kBipedFootPrefix, s.walker, CaseParams(s));
}

std::vector<Row> BipedExperiment::Run(const Case& c) const {
  const auto s = DecodeSettings<biped_detail::BipedSettings>(c);
  WalkerTaskOptions o;
  o.held = {kBipedRootZ, kBipedRootRoll, kBipedRootPitch};  // it should stay and end upright
  o.hold_weight = s.hold_weight;
  o.running_hold_weight = s.running_hold_weight;
  return RunWalkerCase(c, BipedScene(), s.walker, o, [](const Rollout& best, Row* last) {
    (*last)["upright_fraction"] = biped_detail::UprightFraction(best);
  });
}

std::vector<ClaimResult> BipedExperiment::Summarize(const ResultTable& table) const {
  const ResultTable sdrs = table.Filter("model", "sdrs");
  const double codesign = FinalIterationValue(sdrs, "codesign", "upright_fraction");
  const double control = FinalIterationValue(sdrs, "control", "upright_fraction");
  if (std::isnan(codesign)) return {};
  const ResultTable rows = sdrs.Filter("record", "iteration").Filter("variant", "codesign");
  ClaimResult r{"biped.codesign_balance"};
  r.ours = codesign;
  r.values["control_upright_fraction"] = control;
  r.note = "sdrs, the best iterate after " + rows.Text(0, "iterations") + " Adam iterations of " + rows.Text(0, "steps") +
           " steps: upright " + FormatShort(codesign) + " of the rollout with co-design, " + FormatShort(control) +
           " with control only";
  return {r};
}

std::vector<Observation> BipedExperiment::Observe(const ResultTable& table) const {
  return CodesignLossRatios(table);
}

}  // namespace arena
