// The sweep of a co-design experiment (seed 003's chain_reach and spider, and the rest of
// issue 22's tasks): each model with a contact potential of its own, each of its settings, each
// variant, "control" (the controller's parameters alone) and "codesign" (and the hulls of chosen
// colliders, the model's design parameters), optimised on the model's gradient.
#pragma once

#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "experiments/result_table.h"
#include "core/scene/scene.h"
#include "experiments/common/settings/settings.h"
#include "experiments/experiment.h"
#include "models/simulator.h"
#include "solvers/optimizer_trace.h"
#include "trajectory/rollout.h"

namespace arena {

/// The co-design sweep's config key (the variants) and the parameter it gives every case before
/// the spec's (the case's variant).
struct CodesignCase {
  std::vector<std::string> variants;
  std::string variant;

  template <class V>
  void VisitFields(V&& v) {
    v("variants", variants, "control and/or codesign (the axis)", "", std::nullopt, SettingRole::kConfig);
    v("variant", variant, "control (the controller alone) or codesign (and the chosen colliders' hulls)", "",
      std::nullopt, SettingRole::kCase);
  }
};

/// The config's `variants`, each "control" or "codesign" (InvalidArgument naming the file and key
/// otherwise).
std::vector<std::string> ReadCodesignVariants(const ProfileConfig& config);

/// Whether `model` can design chosen colliders' hulls (sdrs's options design_derivatives and
/// design_colliders).
bool DesignsHulls(const std::string& model);

struct CodesignSweepSpec {
  std::string experiment;                                 // for seeds and messages
  std::shared_ptr<const Scene> scene;                     // to see which models can run it
  std::vector<std::string> variants;                      // ReadCodesignVariants
  double timestep = 0.01;                                 // s, every case's step
  std::string designed;                                   // design_colliders of the codesign cases
  std::vector<std::pair<std::string, Value>> params;      // every case's parameters (after variant)
};

/// The cases: model x setting x variant, ids model/variant[/setting]. A model without a contact
/// potential on the scene, or (codesign) without design derivatives, is skipped with a note. The
/// experiment sets timestep, design_derivatives and design_colliders itself: in the config or
/// --set they are an InvalidArgument.
Sweep ExpandCodesignSweep(const ProfileConfig& config, const std::vector<std::string>& models,
                          const CodesignSweepSpec& spec);

/// Per model and variant: the best loss over the first (iteration rows: loss, best_loss).
std::vector<Observation> CodesignLossRatios(const ResultTable& table);

/// A variant's `column` in its last iteration row (NaN when it has none or its run failed).
double FinalIterationValue(const ResultTable& table, const std::string& variant, const std::string& column);

/// A design as rows (record "design", `stage`, `variant`): per designed vertex its collider, its
/// row in the collider's hull points and its body-frame coordinates x_m, y_m, z_m, from the design
/// parameters `p` of `sim` (DesignVertices::DesignVertexIds). `arena
/// export-design` writes such rows as a mesh file.
void AppendDesignRows(const Simulator& sim, const VecX& p, const std::string& stage,
                      const std::string& variant, std::vector<Row>* rows);

/// Into the last iteration row: why the optimiser stopped, and for a failed run why (with the
/// failed rollout's reason, `last` being the objective's last rollout).
void MarkOptimiserStop(const OptimizerTrace& trace, const Rollout& last, Row* row);

}  // namespace arena
