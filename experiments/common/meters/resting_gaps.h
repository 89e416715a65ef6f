// Where the incremental-potential models' boxes come to rest on each other, for experiments that
// stack boxes (book_stacking, stacking). The three models are barriers: they refuse a start with
// touching meshes (the potential is infinite at contact), and a stack started farther apart or
// closer than where it rests falls into or is pushed out to that gap, which a stack "at rest"
// should not have to do. The rules assume boxes meshed as their 12 triangles (box_max_edge = 0).
#pragma once

#include <string>

#include "core/common/options.h"

namespace arena {

/// longrange (seed 004): the two triangles of a box face and the two of the face below give 4
/// near triangle pairs, each pushing with 12 mu / s^2 (Sec. 4: six 1/s vertex terms, s split
/// between the two sides), so a weight `weight_n` (N) is carried at s = sqrt(48 mu / weight_n) (m).
double LongrangeRestingGap(double mu, double weight_n);

/// The gap (m) at which `model`'s stacked boxes start, from its options (the case's, defaults
/// for the rest) and the weight each contact carries (`weight_n`, N): longrange its resting gap;
/// ipc 0.8 dhat, where box_drop's 1 kg cube rests with the automatic kappa (0.82 dhat at dhat =
/// 1e-3 and 1e-4); sdrs the gap where its separating-plane potential carries the weight between
/// two box faces (sdrs::RestingGap); 0 (exactly touching, as the Silico paper's towers) for every
/// other model.
double StackStartGap(const std::string& model, const OptionMap& options, double weight_n);

}  // namespace arena
