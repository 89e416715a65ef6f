// The triangle meshes the incremental-potential models see: every collider of a Scene as a
// closed triangle mesh with its vertices in its body's frame (the collider placement applied),
// so a vertex's world position is T_body v. Seeds 003 and 004 represent every link as triangle
// meshes (SDRS: unions of convex hulls; long-range: meshes) and the static environment as
// fixed geometry; spheres are tessellated (Fibonacci points and their convex hull: 2V - 4
// triangles, as seed 004's billiard balls), boxes are their 12 triangles (or a finer grid on
// every face, box_max_edge), and a half-space is a large box below its plane (the papers' ground
// is a box) or, with GroundMesh::kTop, that box's top face alone.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "core/geometry/primitives.h"
#include "core/scene/scene.h"

namespace arena {

struct ColliderMesh {
  int body = kWorldBody;    // the body it moves with (kWorldBody: static)
  int collider = -1;        // index in Scene::colliders
  double friction = 0.0;    // the collider's Coulomb coefficient (a pair uses the smaller)
  PointsX3 vertices;        // in the body frame
  TrianglesX3 triangles;    // outward winding
  /// The meshes after this one it may touch: Scene::CollisionPairs (groups and masks, parent
  /// and child, excluded pairs, self_collision), the pair filter every model obeys.
  std::vector<int> partners;
};

/// How a half-space is meshed. kBox: a box whose top face is the plane (12 triangles; the
/// papers' ground is a box). kTop: its top face alone (2 triangles). Seed 004's potential is
/// a sum over triangle pairs and a ground triangle's bounding sphere is as wide as the ground,
/// so every triangle near the ground is an exact pair with all 12; the 10 side and bottom ones lie
/// 1 m to 50 m away and add almost nothing to the force but 5x to the cost of the ground pairs.
enum class GroundMesh { kBox, kTop };
std::string_view ToString(GroundMesh v);
bool FromString(std::string_view text, GroundMesh* v);
std::string EnumValues(GroundMesh);

struct ColliderMeshOptions {
  int sphere_vertices = 96;         // Fibonacci points on a sphere (2V - 4 triangles)
  /// m: 0 keeps a box's 12 triangles; > 0 splits each face into a grid of cells no longer than
  /// this along either side (2 triangles a cell). Seed 004's long-range potential is a sum over
  /// triangle pairs, so where a face's support ends (a plank overhanging the one below) is only
  /// resolved to a triangle's size (docs/models/longrange.md, book stacking).
  double box_max_edge = 0.0;
  double ground_half_size = 50.0;   // m: a half-space becomes a box this wide (half extent)...
  double ground_depth = 1.0;        // m: ... and this deep below its plane
  GroundMesh ground_mesh = GroundMesh::kBox;
  /// "" when valid.
  std::string Validate() const;
};

/// One mesh per collider (mesh i is collider i), with its partners. Throws Unsupported naming the collider for shapes that have no mesh
/// here (capsules, cylinders, cones, ellipsoids, 2D shapes, padded hulls).
std::vector<ColliderMesh> BuildColliderMeshes(const Scene& scene, const ColliderMeshOptions& options);

}  // namespace arena
