// Where the barrier models' boxes come to rest on each other, for experiments that stack boxes
// (book_stacking, stacking). The barrier models refuse a start with touching meshes (the potential
// is infinite at contact), and a stack started farther apart or closer than where it rests falls
// into or is pushed out to that gap, which a stack "at rest" should not have to do. Each model
// states its rule with its registry entry (ModelInfo::stacking_gap: longrange sqrt(48 mu / m g),
// ipc 0.8 dhat, sdrs where its separating-plane potential carries the weight); the rules assume
// boxes meshed as their 12 triangles (box_max_edge = 0).
#pragma once

#include <string>

#include "core/common/options.h"

namespace arena {

/// The gap (m) at which `model`'s stacked boxes start, from its options (the case's, defaults
/// for the rest) and the weight each contact carries (`weight_n`, N): the model's stacking gap,
/// or 0 (exactly touching, as the Silico paper's towers) for a model without one.
double StackStartGap(const std::string& model, const OptionMap& options, double weight_n);

}  // namespace arena
