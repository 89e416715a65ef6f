#include "experiments/common/meters/hull_distances.h"

#include <algorithm>
#include <limits>
#include <map>
#include <utility>

#include "models/incremental_potential/contact_potential.h"
#include "models/sdrs/point_set_distance.h"

namespace arena {

double MinimumHullDistance(Simulator& sim, const std::vector<State>& states) {
  MeshPotential& mesh = RequireMeshPotential(sim);
  std::map<int, int> mesh_of;  // collider -> mesh
  for (int m = 0; m < static_cast<int>(mesh.meshes().size()); ++m) mesh_of[mesh.meshes()[m].collider] = m;
  const std::vector<std::pair<int, int>> pairs = sim.scene().CollisionPairs();
  ContactConfiguration x;
  double closest = std::numeric_limits<double>::infinity();
  for (const State& s : states) {
    mesh.MeshConfiguration(s.q, &x);
    for (const auto& [a, b] : pairs) {
      const sdrs::PointSetSeparation d = sdrs::SeparatePointSets(x.world[mesh_of.at(a)], x.world[mesh_of.at(b)]);
      closest = std::min(closest, d.intersecting ? 0.0 : d.distance);
    }
  }
  return closest;
}

}  // namespace arena
