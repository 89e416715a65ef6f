// The one list of contact models, keyed by the snake_case name used in configs and the CLI.
// Adding a model = one folder under models/ + one entry in registry.cc (no static
// self-registration: linkers drop it from static libraries).
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "core/common/options.h"
#include "models/simulator.h"

namespace arena {

/// What the conformance suite (tests/models/conformance_test.cc) may expect of a model; each
/// model declares it with its registry entry, so a new model is tested without a test of its own.
struct ConformanceSpec {
  /// A box resting on the ground for 1 s at the model's default timestep moves its centre by at
  /// most this much (m): what the model's contact law allows (penalty and MuJoCo sink softly).
  double resting_drift_m = 1e-3;
  /// Options for that test, where the defaults cannot hold the box (say why in the entry).
  OptionMap resting_options{};
  /// Largest corrected relative error of Derivatives() against Ridders differences of the
  /// model's own Step, on a contact state and on a free-flight state.
  double derivative_tolerance = 1e-6;
  /// Ridders' initial step for that comparison: larger for a model whose step is a minimiser
  /// known only to its inner solves (longrange: ~1e-10 m), which differences from 1e-5 amplify.
  double ridders_step = 1e-5;
  /// Options the suite sets (e.g. a tight solver tolerance, without which an iterative model's
  /// step is not differentiable by differences at all).
  OptionMap derivative_options{};
  /// The resting box starts this far above the ground (barrier models cannot start touching).
  double resting_clearance_m = 0.0;
  /// How deep the derivative test's contact state puts a corner into the ground (m); negative:
  /// above it (barrier models, whose contact acts at a distance and forbids penetration).
  double contact_depth_m = 1e-3;
  /// Repeated runs give bit-identical states. False only with a reason (DART: FCL orders a
  /// pair's contacts differently from run to run); the suite then checks agreement to 1e-9.
  bool bit_reproducible = true;
};

struct ModelInfo {
  std::string name;
  std::string description;   // one line
  std::string paper;         // seed file and section, or "" for baselines
  Capabilities capabilities;  // with the default options
  /// With these options (capabilities may depend on them); throws as validate does.
  std::function<Capabilities(const OptionMap&)> capabilities_for;
  ConformanceSpec conformance;
  /// Option list with defaults and docs (every model has at least `timestep`).
  std::function<std::vector<OptionInfo>()> options;
  /// Throws InvalidArgument (naming the model, key and problem) if `options` would be rejected
  /// by `make`: unknown key, unparsable value, or a value Options::Validate refuses.
  std::function<void(const OptionMap&)> validate;
  /// Where two of this model's stacked boxes (faces of 12-triangle meshes) start so that they
  /// rest as they are, from its options (the given ones, defaults for the rest) and the weight
  /// each contact carries (N -> m). Set for the barrier models, which refuse touching meshes
  /// (their Sim::StackingGap); null for the others, whose boxes start touching (0).
  std::function<double(const OptionMap&, double weight_n)> stacking_gap;
  /// Builds a simulator; throws InvalidArgument (bad option) or Unsupported (scene).
  std::function<std::unique_ptr<Simulator>(std::shared_ptr<const Scene>, const OptionMap&)> make;
};

const std::vector<ModelInfo>& Models();
/// Throws InvalidArgument listing the registered names when `name` is unknown.
const ModelInfo& FindModel(std::string_view name);
/// Every registered name, in registry order.
std::vector<std::string> ModelNames();
std::unique_ptr<Simulator> MakeSimulator(std::string_view name, std::shared_ptr<const Scene> scene,
                                         const OptionMap& options);

}  // namespace arena
