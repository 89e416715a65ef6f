// Two random convex hulls a small gap apart: the scene of potential_cost, seed 003 (SDRS, Ye et
// al.) Figs. 7-8, which times one pairwise contact potential as the hulls' vertex count grows
// (Sec. IX: "We generate random convex hulls with different number of vertices").
//
// Each hull is the convex hull of `vertices` points drawn uniformly on a sphere of `radius` (every
// such point is a hull vertex, so the count is exact; the hull has 2V - 4 triangles). Hull "a" is
// a free body at the origin, hull "b" a free body on the +x axis placed so that the exact distance
// between the hulls (GJK) is `gap`. No ground, no gravity, friction 0: the scene holds the one
// pair and nothing else a potential evaluation could spend time on.
#pragma once

#include <cstdint>
#include <memory>

#include "core/scene/scene.h"

namespace arena {

struct HullPairSceneOptions {
  int vertices = 20;        // points per hull, >= 4
  std::uint64_t seed = 0;   // of both hulls' points (a's drawn first)
  double radius = 0.2;      // m: of the sphere the points lie on
  double gap = 0.02;        // m: distance between the hulls, > 0
};

/// Throws InvalidArgument naming the option for vertices < 4, a non-positive radius or gap.
std::shared_ptr<const Scene> RandomHullPairScene(const HullPairSceneOptions& options);

/// The distance between the two hulls of such a scene at its default configuration (m).
double HullPairDistance(const Scene& scene);

}  // namespace arena
