// Where sdrs's separating-plane potential (seed 003 Sec. IV-B) carries a weight between two flat,
// parallel faces: the gap s at which -dP/ds equals the weight. Experiments that stack boxes start
// them there, as a barrier cannot start touching (P is infinite at contact) and a stack started
// elsewhere first falls into, or is pushed out to, this gap.
#pragma once

#include "models/sdrs/hull_pair_potential.h"

namespace arena::sdrs {

/// The gap (m) at which the potential between a box face and the face of a box below (four
/// vertices each, the boxes' other vertices beyond the barrier's support x0) pushes the upper
/// box up with `weight_n` (N, > 0). Computed from the potential itself (ComputeHullPairPotential,
/// the plane's norm barrier included), by bisection on log s to a relative 1e-10; the force falls
/// monotonically from +inf at contact to 0 at the pruning distance.
double RestingGap(const HullPairOptions& options, double weight_n);

}  // namespace arena::sdrs
