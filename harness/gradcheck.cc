#include "harness/gradcheck.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <random>

#include "core/common/error.h"
#include "core/common/random.h"
#include "core/multibody/configuration.h"
#include "models/counting_simulator.h"
#include "models/finite_difference_derivatives.h"
#include "models/registry.h"
#include "scenes/scene_registry.h"
#include "solvers/finite_difference.h"

namespace arena {

namespace {

// One-sided differences with this step that differ by more than kKinkThreshold (corrected
// relative error) mark a kink: their truncation error, O(h |f''|), and rounding, O(eps / h),
// stay far below it on a smooth piece.
constexpr double kOneSidedStep = 1e-7;
constexpr double kKinkThreshold = 1e-4;

// A state the model visits: a random perturbation of the default state, then its own steps.
State VisitedState(Simulator& sim, Rng& rng) {
  const Scene& scene = sim.scene();
  std::normal_distribution<double> normal(0.0, 1.0);
  State s = DefaultState(scene);
  VecX dq(scene.nv());
  for (int i = 0; i < scene.nv(); ++i) dq[i] = 0.05 * normal(rng);
  s.q = Integrate(scene.model, s.q, dq);
  for (int i = 0; i < scene.nv(); ++i) s.v[i] = 0.3 * normal(rng);
  const int steps = static_cast<int>(Uniform(rng, 0.0, 300.0));
  for (int k = 0; k < steps; ++k) {
    State next = s;
    if (!sim.Step(next, {}).ok() || !FirstNonFiniteEntry(next).empty()) break;  // keep the last good state
    s = std::move(next);
  }
  return s;
}

// Replaces the design blocks of `analytic` and `reference` by their products with `count`
// random unit directions W (np x count): dq+/dp W from the model, and Ridders' differences of
// the step along each direction.
void DesignDirections(Simulator& sim, const State& s, const Control& u, const FdOptions& ridders, int count, Rng& rng,
                      StepDerivatives* analytic, StepDerivatives* reference) {
  const int np = static_cast<int>(sim.DesignParameters().size()), nv = static_cast<int>(s.v.size());
  MatX W(np, count);
  for (int d = 0; d < count; ++d) {
    for (int i = 0; i < np; ++i) W(i, d) = StandardNormal(rng);
    W.col(d) /= W.col(d).norm();
  }
  reference->dq_dp.resize(nv, count);
  reference->dv_dp.resize(nv, count);
  for (int d = 0; d < count; ++d) {
    const VecX y = FiniteDifferenceDesignDirection(sim, s, u, W.col(d), ridders);
    reference->dq_dp.col(d) = y.head(nv);
    reference->dv_dp.col(d) = y.tail(nv);
  }
  analytic->dq_dp = analytic->dq_dp * W;
  analytic->dv_dp = analytic->dv_dp * W;
}

}  // namespace

GradcheckResult RunGradcheck(const GradcheckOptions& options) {
  if (options.states <= 0) throw InvalidArgument("gradcheck: --states must be > 0");
  if (!(options.tolerance > 0.0)) throw InvalidArgument("gradcheck: --tolerance must be > 0");
  if (!(options.ridders_step > 0.0)) throw InvalidArgument("gradcheck: --ridders-step must be > 0");
  const ModelInfo& info = FindModel(options.model);
  if (!info.capabilities_for(options.model_options).has_derivatives()) {
    throw InvalidArgument("gradcheck: model '" + options.model + "' offers no derivatives");
  }
  if (options.design_directions < 0) throw InvalidArgument("gradcheck: --design-directions must be >= 0");
  const std::shared_ptr<const Scene> scene = MakeScene(options.scene, options.scene_options);
  OptionMap model_options = options.model_options;
  const bool directional = options.design_directions > 0;
  if (directional && model_options.count("design_derivatives") == 0) {
    for (const OptionInfo& o : info.options()) {
      if (o.key == "design_derivatives") model_options["design_derivatives"] = "true";
    }
  }
  if (model_options.count("timestep") == 0 && scene->timestep_hint > 0.0) {
    model_options["timestep"] = options_detail::FormatDouble(scene->timestep_hint);
  }
  std::unique_ptr<Simulator> sim = MakeSimulator(options.model, scene, model_options);
  const std::vector<std::string> warnings = sim->OptionWarnings();
  if (options.warn) {
    for (const std::string& w : warnings) options.warn(w);
  }
  const bool smooth = sim->capabilities().smooth;
  FdOptions ridders;
  ridders.method = FdMethod::kRidders;
  ridders.ridders_step = options.ridders_step;

  GradcheckResult result;
  result.warnings = warnings;
  result.derivatives = sim->capabilities().derivatives;
  result.blocks = {{"dq+/dq"}, {"dq+/dv"}, {"dq+/du"}, {"dv+/dq"}, {"dv+/dv"}, {"dv+/du"}};
  const int np = static_cast<int>(sim->DesignParameterNames().size());
  if (directional && np == 0) {
    throw InvalidArgument("gradcheck: --design-directions: model '" + options.model + "' has no design parameters here");
  }
  if (np > 0) {
    result.blocks.push_back({directional ? "dq+/dp w" : "dq+/dp"});
    result.blocks.push_back({directional ? "dv+/dp w" : "dv+/dp"});
  }
  Rng rng(options.seed);
  for (int i = 0; i < options.states; ++i) {
    // A state whose step (with its control) succeeds; a model that blows up from every draw
    // gets its last one, and the failure shows as an infinite error.
    State s;
    Control u;
    StepReport report;
    for (int attempt = 0; attempt < 20; ++attempt) {
      s = VisitedState(*sim, rng);
      u.u.resize(scene->nu());
      for (int k = 0; k < scene->nu(); ++k) u.u[k] = Uniform(rng, -1.0, 1.0);
      State probe = s;
      report = sim->Step(probe, u);
      if (report.ok() && FirstNonFiniteEntry(probe).empty()) break;
    }
    (report.contacts > 0 ? result.states_in_contact : result.states_free)++;
    StepDerivatives analytic;
    sim->Derivatives(s, u, &analytic);
    CountingSimulator counting(*sim);
    counting.Reset(report.contacts, report.contact_mode);
    StepDerivatives reference = FiniteDifferenceStepDerivatives(counting, s, u, ridders, !directional);
    if (directional) DesignDirections(counting, s, u, ridders, options.design_directions, rng, &analytic, &reference);
    // One-sided differences that disagree show a kink the counts missed (a contact tied
    // between clamping and separating keeps its class, but its two sides differ).
    FdOptions one_sided;
    one_sided.step = kOneSidedStep;
    one_sided.method = FdMethod::kForward;
    const StepDerivatives forward = FiniteDifferenceStepDerivatives(counting, s, u, one_sided, !directional);
    one_sided.method = FdMethod::kBackward;
    const StepDerivatives backward = FiniteDifferenceStepDerivatives(counting, s, u, one_sided, !directional);
    // A smooth model's contact count changes without a kink (longrange's exact pairs enter
    // through a C2 blend): only the one-sided differences judge it.
    const bool count_changed = !smooth && counting.contact_changes() > 0;
    const bool at_event = count_changed || MaxStepDerivativeError(forward, backward) > kKinkThreshold;
    result.states_at_events += at_event;
    const MatX* a[8] = {&analytic.dq_dq, &analytic.dq_dv, &analytic.dq_du, &analytic.dv_dq,
                        &analytic.dv_dv, &analytic.dv_du, &analytic.dq_dp, &analytic.dv_dp};
    const MatX* r[8] = {&reference.dq_dq, &reference.dq_dv, &reference.dq_du, &reference.dv_dq,
                        &reference.dv_dv, &reference.dv_du, &reference.dq_dp, &reference.dv_dp};
    for (size_t b = 0; b < result.blocks.size(); ++b) {
      if (a[b]->size() == 0 && r[b]->size() == 0) continue;
      const double e = a[b]->rows() == r[b]->rows() && a[b]->cols() == r[b]->cols()
                           ? CorrectedRelativeError(*a[b], *r[b])
                           : std::numeric_limits<double>::infinity();
      GradcheckBlock& block = result.blocks[b];
      if (at_event) {
        block.max_error_at_events = std::max(block.max_error_at_events, std::isnan(e) ? std::numeric_limits<double>::infinity() : e);
      } else if (!(e <= block.max_error)) {  // NaN counts as the worst
        block.max_error = std::isnan(e) ? std::numeric_limits<double>::infinity() : e;
        block.worst_state = i;
      }
    }
  }
  for (const GradcheckBlock& b : result.blocks) result.max_error = std::max(result.max_error, b.max_error);
  result.passed = result.states_at_events < options.states && result.max_error <= options.tolerance;
  return result;
}

}  // namespace arena
