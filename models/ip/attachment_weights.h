// A joint's attachment point written in its parent hull's vertices (seed 003 Sec. III-B: the
// attachment point must stay inside a hull of the parent, kept linear in the design): fixed
// affine weights w, sum w_i = 1, sum w_i v_i = a, chosen once at the initial shape, so that moving
// the vertices moves the joint with them and the design set stays linear.
#pragma once

#include <utility>
#include <vector>

#include "core/math/types.h"

namespace arena {

/// The minimum-norm affine weights of `a` over the given vertices nearest it (those within 1.5
/// times the nearest one's distance, or all of them when these do not span space). Returns
/// (index into `vertices`, weight) pairs; empty when no four of the vertices span space.
std::vector<std::pair<int, double>> AttachmentWeights(const std::vector<Vec3>& vertices, const Vec3& a);

}  // namespace arena
