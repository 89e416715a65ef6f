#include "experiments/common/meters/hull_distances.h"

#include <algorithm>
#include <limits>
#include <map>
#include <utility>

#include "models/sdrs/point_set_distance.h"

namespace arena {

double MinimumHullDistance(IncrementalPotentialSimulator& sim, const std::vector<State>& states) {
  std::map<int, int> mesh_of;  // collider -> mesh
  for (int m = 0; m < static_cast<int>(sim.meshes().size()); ++m) mesh_of[sim.meshes()[m].collider] = m;
  const std::vector<std::pair<int, int>> pairs = sim.scene().CollisionPairs();
  ContactConfiguration x;
  double closest = std::numeric_limits<double>::infinity();
  for (const State& s : states) {
    sim.MeshConfiguration(s.q, &x);
    for (const auto& [a, b] : pairs) {
      const sdrs::PointSetSeparation d = sdrs::SeparatePointSets(x.world[mesh_of.at(a)], x.world[mesh_of.at(b)]);
      closest = std::min(closest, d.intersecting ? 0.0 : d.distance);
    }
  }
  return closest;
}

}  // namespace arena
