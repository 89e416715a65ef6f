#include "experiments/common/sweeps/codesign_sweep.h"

#include <cmath>
#include <limits>

#include "config/profile_config.h"
#include "core/common/error.h"
#include "experiments/common/sweeps/model_sweep.h"
#include "experiments/common/meters/potential_timing.h"
#include "experiments/common/summaries/table_stats.h"
#include "models/registry.h"

namespace arena {

std::vector<std::string> ReadCodesignVariants(const ProfileConfig& config) {
  const std::vector<std::string> variants = ReadSettings<CodesignCase>(config).variants;
  for (const std::string& v : variants) {
    if (v != "control" && v != "codesign") {
      throw InvalidArgument(config.file() + ": key variants: unknown '" + v + "'; valid: control, codesign");
    }
  }
  return variants;
}

bool DesignsHulls(const std::string& model) {
  bool design = false, colliders = false;
  for (const OptionInfo& o : FindModel(model).options()) {
    design |= o.key == "design_derivatives";
    colliders |= o.key == "design_colliders";
  }
  return design && colliders;
}

Sweep ExpandCodesignSweep(const ProfileConfig& config, const std::vector<std::string>& models,
                          const CodesignSweepSpec& spec) {
  Sweep sweep;
  for (const std::string& model : models) {
    if (std::string why = WhyNoContactPotential(model, spec.scene); !why.empty()) {
      sweep.notes.push_back(model + ": skipped (" + why + ")");
      continue;
    }
    const std::vector<ModelSetting> settings =
        ExpandModelSweep(config, model, {"timestep", "design_derivatives", "design_colliders"},
                         spec.experiment + " sets it (timestep from timestep_s, the design from the variant)");
    for (const ModelSetting& setting : settings) {
      for (const std::string& variant : spec.variants) {
        Case c;
        c.index = static_cast<int>(sweep.cases.size());
        c.model = model;
        c.id = model + "/" + variant + setting.IdSuffix();
        c.model_options = setting.options;
        c.model_options["timestep"] = FormatValue(spec.timestep);
        if (variant == "codesign") {
          if (!DesignsHulls(model)) {
            sweep.notes.push_back(model + ": codesign skipped (no design derivatives of its hulls)");
            continue;
          }
          c.model_options["design_derivatives"] = "true";
          c.model_options["design_colliders"] = spec.designed;
        }
        c.params = CaseParams(CodesignCase{.variants = {}, .variant = variant});
        c.params.insert(c.params.end(), spec.params.begin(), spec.params.end());
        c.seed = DeriveSeed(spec.experiment, c.id);
        sweep.cases.push_back(std::move(c));
      }
    }
  }
  return sweep;
}

std::vector<Observation> CodesignLossRatios(const ResultTable& table) {
  std::vector<Observation> out;
  const ResultTable iterations = table.Filter("record", "iteration");
  for (const std::string& model : iterations.Distinct("model")) {
    for (const std::string& variant : iterations.Filter("model", model).Distinct("variant")) {
      const ResultTable t = iterations.Filter("model", model).Filter("variant", variant);
      const double first = t.Number(0, "loss"), best = t.Number(t.num_rows() - 1, "best_loss");
      if (first > 0.0 && std::isfinite(best)) {
        out.push_back({"loss_ratio", model + " " + variant, best / first, "", "best / initial loss"});
      }
    }
  }
  return out;
}

double FinalIterationValue(const ResultTable& table, const std::string& variant, const std::string& column) {
  const ResultTable t = table.Filter("record", "iteration").Filter("variant", variant);
  if (t.num_rows() == 0 || !t.Text(t.num_rows() - 1, "failure").empty()) return std::numeric_limits<double>::quiet_NaN();
  return t.Number(t.num_rows() - 1, column);
}

void AppendDesignRows(const Simulator& sim, const VecX& p, const std::string& stage,
                      const std::string& variant, std::vector<Row>* rows) {
  const std::vector<DesignVertexId> ids = RequireDesignVertices(sim).DesignVertexIds();
  for (std::size_t k = 0; k < ids.size(); ++k) {
    const auto i = static_cast<Eigen::Index>(3 * k);
    rows->push_back({{"record", std::string("design")},
                     {"variant", variant},
                     {"stage", stage},
                     {"collider", ids[k].collider},
                     {"vertex", static_cast<std::int64_t>(ids[k].vertex)},
                     {"x_m", p[i]},
                     {"y_m", p[i + 1]},
                     {"z_m", p[i + 2]}});
  }
}

void MarkOptimiserStop(const OptimizerTrace& trace, const Rollout& last, Row* row) {
  (*row)["stop"] = std::string(ToString(trace.stop));
  if (trace.stop == OptimizerStop::kFailed) (*row)["failure"] = trace.message + (last.ok() ? "" : ": " + last.failure);
}

}  // namespace arena
