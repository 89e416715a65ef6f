// Exact mesh-mesh distances between the colliders of a spatial scene, each as the closed triangle
// mesh the incremental-potential models see (models/incremental_potential/collider_meshes.h: boxes as their 12
// triangles, the ground as a 100 m wide, 1 m deep box), whatever geometry a model uses itself:
// one measure for every model, so that a distance < 0 (interpenetration, core/geometry/
// mesh_distance.h) means the same in every row. book_stacking reads the gaps between planks;
// book_stacking, box_drop and stacking the smallest distance over a run (`min_distance_m`).
#pragma once

#include <limits>
#include <memory>
#include <utility>
#include <vector>

#include "core/geometry/mesh.h"
#include "core/multibody/data.h"
#include "core/scene/scene.h"

namespace arena {

class ColliderDistances {
 public:
  /// Throws Unsupported naming the collider when a shape has no mesh (2D shapes, capsules, ...).
  explicit ColliderDistances(const Scene& scene);

  /// Colliders, in the scene's order.
  int size() const { return static_cast<int>(mesh_.size()); }
  /// m: the signed distance between colliders a and b at configuration q.
  double Between(const VecX& q, int a, int b);
  /// m: the smallest signed distance over pairs of colliders on different bodies at q; a pair
  /// whose bounding spheres are farther apart than the best so far is skipped (its distance is
  /// larger). +infinity when there is no such pair.
  double Minimum(const VecX& q);
  /// The same over the pairs the scene lets collide (Scene::CollisionPairs): a link and its
  /// parent, or an excluded pair, overlap by design and are left out. +infinity without pairs.
  double MinimumOverCollisionPairs(const VecX& q);
  /// Minimum(q), also kept as the smallest over every Observe: a run's closest approach.
  double Observe(const VecX& q);
  /// m: the smallest Minimum seen by Observe (+infinity before the first).
  double closest() const { return closest_; }

 private:
  // The smallest distance over `pairs` of colliders on different bodies at the kinematics in
  // data_, skipping a pair whose bounding spheres are farther apart than the best so far.
  double MinimumOver(const std::vector<std::pair<int, int>>& pairs) const;

  const Scene& scene_;
  MultibodyData data_;                  // forward kinematics of q
  std::vector<int> body_;               // the body each collider moves with (kWorldBody: static)
  std::vector<double> radius_;          // m: bounding sphere about the body's origin
  std::vector<std::shared_ptr<const TriangleMeshData>> mesh_;
  double closest_ = std::numeric_limits<double>::infinity();
};

}  // namespace arena
