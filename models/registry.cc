#include "models/registry.h"
#include "core/common/strings.h"

#include "core/common/error.h"
#include "models/bilevel/bilevel.h"
#include "models/engines/dart/dart_simulator.h"
#include "models/engines/mujoco/mujoco_simulator.h"
#include "models/ipc/ipc_simulator.h"
#include "models/longrange/longrange_simulator.h"
#include "models/nimble/nimble.h"
#include "models/penalty/penalty.h"
#include "models/scm/scm_simulator.h"
#include "models/sdrs/sdrs_simulator.h"
#include "models/silico/silico.h"

namespace arena {

namespace {

// A model's own options and the step-validity bounds every model takes (models/step_validity.h),
// as one option list: one namespace of keys per model, one unknown-key error listing them all.
template <class Own>
struct WithStepValidity : Own {
  StepValidityOptions validity;
  template <class V>
  void VisitFields(V&& v) {
    Own::VisitFields(v);
    validity.VisitFields(v);
  }
  std::string Validate() const {
    std::string error = Own::Validate();
    return error.empty() ? validity.Validate() : error;
  }
};

// Builds the ModelInfo of a model whose Simulator takes (scene, OwnOptions); its name and
// capabilities come from the class (Sim::kName, Sim::CapabilitiesFor), their one source.
template <class Sim, class OwnOptions>
ModelInfo Entry(std::string description, std::string paper, ConformanceSpec conformance = {}) {
  using Options = WithStepValidity<OwnOptions>;
  ModelInfo info;
  const std::string name(Sim::kName);
  info.name = name;
  info.description = std::move(description);
  info.paper = std::move(paper);
  info.capabilities = Sim::CapabilitiesFor(OwnOptions{});
  info.capabilities_for = [name](const OptionMap& values) {
    Options options;
    ApplyOptions(values, name, &options);
    return Sim::CapabilitiesFor(options);
  };
  info.conformance = std::move(conformance);
  info.options = [] { return DescribeOptions(Options{}); };
  info.validate = [name](const OptionMap& values) {
    Options options;
    ApplyOptions(values, name, &options);
  };
  if constexpr (requires(const OwnOptions& o) { Sim::StackingGap(o, 1.0); }) {
    info.stacking_gap = [name](const OptionMap& values, double weight_n) {
      Options options;
      ApplyOptions(values, name, &options);
      return Sim::StackingGap(static_cast<const OwnOptions&>(options), weight_n);
    };
  }
  info.make = [name](std::shared_ptr<const Scene> scene, const OptionMap& values) {
    Options options;
    ApplyOptions(values, name, &options);
    auto sim = std::make_unique<Sim>(std::move(scene), static_cast<const OwnOptions&>(options));
    sim->set_step_validity(options.validity);
    return std::unique_ptr<Simulator>(std::move(sim));
  };
  return info;
}

}  // namespace

const std::vector<ModelInfo>& Models() {
  static const std::vector<ModelInfo> models = {
      Entry<PenaltySimulator, PenaltyOptions>(
          "spring-damper contact with regularised Coulomb friction, semi-implicit Euler "
          "(sanity baseline, not a paper model)",
          "",
          // At its default 100 Hz the default stiffness (1e4 N/m per corner) is unstable for a
          // 1 kg box (symplectic Euler needs dt < 2 / omega, omega = sqrt(4 k / m) = 200 rad/s):
          // the conformance box rests at 1 kHz, where it sinks m g / (4 k) = 0.25 mm.
          {.resting_drift_m = 1e-3, .resting_options = {{"timestep", "0.001"}}}),
      Entry<SilicoSimulator, SilicoOptions>(
          "single-level contact: collision detection and contact dynamics in one interior-point "
          "solve, relaxation rho, implicit-function derivatives",
          "seed 000 (Le Cleac'h et al., RA-L 2023), eq. 20",
          // The relaxed complementarity (gap x impulse = rho) holds a resting box slightly above
          // the ground; the step is differentiable by differences only when solved tightly.
          {.resting_drift_m = 2e-3,
           .derivative_options = {{"rho", "1e-3"}, {"residual_tolerance", "1e-10"}}}),
      Entry<BilevelSimulator, BilevelOptions>(
          "bilevel contact: collision detection (P14) nested in every residual evaluation of the "
          "contact solve, outer Jacobian by finite differences or the IFT chain rule",
          "seed 000 (Le Cleac'h et al., RA-L 2023), Secs. IV-B and VI-B baseline, Figs. 9-11"),
      Entry<NimbleSimulator, NimbleOptions>(
          "velocity-level LCP contact on articulated bodies (boxed Dantzig with Nimble's warm "
          "start and stabilization), analytical Jacobians through the LCP active set",
          "seed 002 (Werling et al., RSS 2021), Sec. III-V, App. A-B, F"),
      Entry<LongRangeSimulator, LongRangeModelOptions>(
          "incremental potential with the long-range contact potential: a bounding-sphere hierarchy "
          "blending exact separating-plane potentials of triangle pairs into centred far-field "
          "terms, Newton over the joint coordinates, implicit-function derivatives",
          "seed 004 (Ye et al., ICLR 2025), Sec. 3-5, Algorithm 1",
          // A barrier: the box rests above the ground at the gap where mu P carries its weight
          // (3.3 mm for the 1 kg box at mu = 1e-6) and must start clear of it, here near that gap;
          // the contact state is a corner 1 mm above the ground.
          {.ridders_step = 1e-4, .resting_clearance_m = 3e-3, .contact_depth_m = -1e-3}),
      Entry<SdrsSimulator, SdrsModelOptions>(
          "incremental potential with SDRS's separating-plane potential between convex hulls (locally supported "
          "CLogx barrier, zero beyond a pruning distance), lagged plane-relative friction, Newton over the joint "
          "coordinates, implicit-function derivatives",
          "seed 003 (Ye et al., SDRS, T-RO 2025), Sec. IV-B, IV-C, IV-D",
          // A barrier acting within x0 = 0.1 m: the box must start clear of the ground, here at the
          // gap where kappa min L carries its weight (2.24 cm for the 1 kg box at kappa = 1e-2); the
          // contact state puts a corner 1 cm above the ground, well inside the barrier's support.
          {.resting_clearance_m = 2.24e-2, .contact_depth_m = -1e-2}),
      Entry<IpcSimulator, IpcModelOptions>(
          "Incremental Potential Contact for rigid bodies: clamped log barrier on point-triangle and "
          "edge-edge distances (or seed 004's global 1/dist ablation), lagged smoothed friction, Newton "
          "over the joint coordinates with a collision-free step bound, implicit-function derivatives",
          "Li et al., SIGGRAPH 2020, Sec. 4-5 (seed 004's IPC baseline, App. A.6.3)",
          // A barrier within dhat = 1 mm: the box must start clear of the ground; 0.5 mm is near its
          // resting gap (its four corners and crossing edges carry its weight between dhat / 2 and
          // dhat with the automatic kappa). The contact state puts a corner 0.5 mm above the ground,
          // inside dhat, so the barrier and friction act through the whole step and its differences.
          {.resting_clearance_m = 5e-4, .contact_depth_m = -5e-4}),
      Entry<ScmSimulator, ScmOptions>(
          "smooth analytical contact between oriented point clouds: softmax SSDFs, a softplus spring-damper "
          "with smoothed friction blended over the pair's separation field, explicit dynamics (semi-implicit "
          "Euler or RK4), exact derivatives by AD and the ABA derivatives",
          "seed 001 (Beker et al., 2025), Sec. III, eqs. 9-24",
          // A soft spring: the whole pair's force is k s+(-phi), so the 1 kg box settles where
          // k |phi| = m g, about 1 mm deep at k = 1e4 N/m.
          {.resting_drift_m = 2e-3}),
      Entry<MujocoSimulator, MujocoOptions>(
          "MuJoCo 2.2.2 (Debian libmujoco): the scene as generated MJCF, soft contact, "
          "finite-difference derivatives (engine baseline)",
          "",
          // Derivatives are central differences of the step; MuJoCo's contact solver stops at
          // its tolerance, whose noise the differences see (about 2e-4 against Ridders at the
          // sliding contact state).
          {.derivative_tolerance = 1e-3}),
      Entry<DartSimulator, DartOptions>(
          "DART 6.12 (Debian libdart): the scene as Skeletons, rigid LCP contact (Dantzig), FCL "
          "collision, finite-difference derivatives (Nimble's Tables II-III baseline)",
          "seed 002 (Werling et al., RSS 2021), Tables II-III finite-difference baseline",
          // Derivatives are central differences of the step; DART's LCP solution moves by more
          // than the step's smooth part between perturbations (about 2e-3 against Ridders at
          // the sliding contact state).
          {.derivative_tolerance = 1e-2}),
  };
  return models;
}

const ModelInfo& FindModel(std::string_view name) {
  for (const auto& m : Models()) {
    if (m.name == name) return m;
  }
  throw InvalidArgument("unknown model '" + std::string(name) + "'; registered models: " + Join(ModelNames()));
}

std::vector<std::string> ModelNames() {
  std::vector<std::string> names;
  for (const auto& m : Models()) names.push_back(m.name);
  return names;
}

std::unique_ptr<Simulator> MakeSimulator(std::string_view name, std::shared_ptr<const Scene> scene,
                                         const OptionMap& options) {
  const ModelInfo& info = FindModel(name);
  if (std::string why = CheckSupport(info.capabilities_for(options), *scene); !why.empty()) {
    throw Unsupported("model '" + info.name + "' cannot simulate scene '" + scene->name + "': " + why);
  }
  return info.make(std::move(scene), options);
}

}  // namespace arena
