// Timing an incremental-potential model's contact potential on its own: the value, gradient and
// Hessian at one configuration, as one Newton iteration of a step asks for them, without the
// step's inertia, kinematics and linear solve around it. Seed 004 (long-range contact, Ye et
// al.) Fig. 6 and App. A.6.5 time exactly this ("the contact potential with its gradient and
// Hessian") as the tessellation grows.
#pragma once

#include <memory>
#include <string>

#include "models/simulator.h"

namespace arena {

struct PotentialTiming {
  double first_s = 0.0;   // the first evaluation (cold: no warm start from an earlier solve)
  double median_s = 0.0;  // median over every repeat, the first included
  double value = 0.0;     // the potential at the configuration (+inf: intersecting meshes)
  double checksum = 0.0;  // sum of |gradient| and |Hessian block| entries the sink received
  int repeats = 0;        // evaluations timed: fewer than asked when the case's deadline passed
};

/// Evaluates the contact potential of `sim` (its MeshPotential) at state.q `repeats` (>= 1) times with its gradient
/// and per-term PSD-projected Hessian (what projected Newton requests), after BeginStep at the
/// same configuration (untimed) so the lagged friction terms a step would add are included. The
/// derivatives go to a sink that only sums their magnitudes, so the time is the potential's, not
/// the chain rule's to the joint coordinates. One evaluation cannot be interrupted; the repeats
/// stop once the case's deadline (core/common/deadline.h) has passed. Throws InvalidArgument when the model has no
/// contact potential (mesh_potential() null) or repeats < 1.
PotentialTiming TimeContactPotential(Simulator& sim, const State& state, int repeats);

/// "" when `model` runs `scene` with a contact potential of its own (Simulator::mesh_potential: what
/// potential_cost times and chain_cost breaks down), else why not: its capabilities' reason, or
/// that it has none. Builds the model on the scene to ask.
std::string WhyNoContactPotential(const std::string& model, const std::shared_ptr<const Scene>& scene);

/// `sim`, checked to be such a model (RequireMeshPotential: throws Unsupported naming it otherwise).
Simulator& AsContactPotentialModel(Simulator& sim);

}  // namespace arena
