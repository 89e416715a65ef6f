#include "experiments/spider/spider.h"

#include <cmath>
#include <limits>
#include <memory>
#include <string>

#include "config/profile_config.h"
#include "experiments/result_table.h"
#include "experiments/common/settings/settings.h"
#include "experiments/common/sweeps/codesign_sweep.h"
#include "experiments/common/summaries/table_stats.h"
#include "experiments/common/tasks/walker_task.h"
#include "scenes/spider_scenes.h"

namespace arena {

namespace spider_detail {

struct SpiderSettings {
  WalkerSettings walker;
  double slope_deg = 0.0;

  template <class V>
  void VisitFields(V&& v) {
    walker.VisitFields(v, [&] {
      v("slope_deg", slope_deg, "the slope (gravity tilted; down the slope is +x)", "deg", Closed(0.0, 44.0));
    });
  }
};

}  // namespace spider_detail

std::vector<Column> SpiderExperiment::columns() const {
  return WalkerColumns(ParamColumns<spider_detail::SpiderSettings>());
}

Sweep SpiderExperiment::Expand(const ProfileConfig& config, const std::vector<std::string>& models) const {
  const auto s = ReadSettings<spider_detail::SpiderSettings>(config);
  return ExpandWalkerSweep(config, models, name(), SpiderScene({.slope_deg = s.slope_deg}), kSpiderFootPrefix, s.walker,
                           CaseParams(s));
}

std::vector<Row> SpiderExperiment::Run(const Case& c) const {
  const auto s = DecodeSettings<spider_detail::SpiderSettings>(c);
  return RunWalkerCase(c, SpiderScene({.slope_deg = s.slope_deg}), s.walker, {});
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
