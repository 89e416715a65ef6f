// Collision shapes. Each shape lives in its own frame S (placed on a body by a Collider).
//
// 3D shapes (axis conventions follow MuJoCo / URDF: round shapes are symmetric about S's z axis):
//   Sphere{r}                 centred at the origin
//   Box{h}                    half extents h along x, y, z
//   Capsule{r, hl}            segment from -hl z to +hl z, radius r
//   Cylinder{r, hl}           z in [-hl, hl], radius r
//   Ellipsoid{a}              x^2/a_x^2 + y^2/a_y^2 + z^2/a_z^2 <= 1
//   Cone{r, h}                axis z, base disk of radius r at z = -h/4, apex at z = +3h/4
//                             (the origin is the centroid, strictly inside, as alpha-scaling needs)
//   HalfSpace{}               z <= 0; outward normal +z
//   ConvexHull{data}          V-representation; faces (outward planes) computed by qhull
//   TriangleMesh{data}        triangle soup with a BVH, e.g. loaded from STL/OBJ
// 2D shapes of planar scenes (in S's xy-plane; the body moves in the plane, rotating about z):
//   Polygon2{A, b, r}         padded polygon: { p : A p <= b } (b > 0, origin strictly inside)
//                             Minkowski-summed with a disk of radius r >= 0 (r = 0: the plain
//                             polygon; r > 0: a rounded polygon, as Capsule2 is a segment plus a
//                             disk); vertices of the core polygon cached
//   Disk2{r}                  centred at the origin
//   Capsule2{r, hl}           segment from -hl x to +hl x, radius r
//   HalfPlane2{}              y <= 0; outward normal +y
#pragma once

#include <memory>
#include <string_view>
#include <variant>
#include <vector>

#include "core/math/types.h"

namespace arena {

enum class ShapeType {
  kSphere, kBox, kCapsule, kCylinder, kEllipsoid, kCone, kHalfSpace, kConvexHull, kMesh,
  kPolygon2, kDisk2, kCapsule2, kHalfPlane2,
};
inline constexpr int kNumShapeTypes = 13;

std::string_view ToString(ShapeType type);
/// True for the 2D shapes of planar scenes.
bool IsPlanar(ShapeType type);

struct Sphere { double radius = 0.0; };
struct Box { Vec3 half_extents = Vec3::Zero(); };
struct Capsule { double radius = 0.0; double half_length = 0.0; };
struct Cylinder { double radius = 0.0; double half_length = 0.0; };
struct Ellipsoid { Vec3 radii = Vec3::Zero(); };
struct Cone { double radius = 0.0; double height = 0.0; };
struct HalfSpace {};

/// Vertices and outward faces of a convex polyhedron. Built by MakeConvexHull (qhull).
struct ConvexHullData {
  Eigen::Matrix<double, Eigen::Dynamic, 3, Eigen::RowMajor> vertices;   // hull vertices only
  std::vector<Eigen::Vector3i> triangles;                               // outward winding
  Eigen::Matrix<double, Eigen::Dynamic, 3, Eigen::RowMajor> face_normals;  // unit, per facet
  VecX face_offsets;                                                    // n . x <= offset
  std::vector<std::pair<int, int>> edges;                               // unique vertex pairs
  // Added by core/geometry/convex_hull.h. Coplanar facets are merged, so a facet (one row of
  // face_normals) may be a polygon split into several triangles; edges are facet boundary edges.
  std::vector<int> triangle_faces;                  // facet of each triangle
  std::vector<int> input_indices;                   // input point of each hull vertex
  std::vector<std::vector<int>> vertex_neighbors;   // adjacency along `edges`, ascending
  Vec3 interior_point = Vec3::Zero();               // mean of the vertices (strictly inside)
};
/// Convex polytope, optionally padded: the hull (+) a ball of `radius` (Minkowski sum; silico's
/// "padded polytope", seed 000 App. B). Geometry routines treat the hull as a core with a margin,
/// as they treat a capsule's segment.
struct ConvexHull {
  std::shared_ptr<const ConvexHullData> data;
  double radius = 0.0;  // padding (m); 0 = plain hull
};

struct TriangleMeshData;  // core/geometry/mesh.h
struct TriangleMesh { std::shared_ptr<const TriangleMeshData> data; };

/// Padded polygon: the core polygon { p : A p <= b } plus (Minkowski sum) a disk of `radius`.
/// Geometry routines treat the core as GJK treats a capsule's segment: `radius` is a margin.
struct Polygon2 {
  Eigen::Matrix<double, Eigen::Dynamic, 2> A;   // core face normals (rows need not be unit)
  VecX b;                                       // core offsets, all > 0
  Eigen::Matrix<double, Eigen::Dynamic, 2> vertices;  // core, counter-clockwise, from MakePolygon2
  // Padding: the shape is the polygon (+) a disk of this radius; 0 = plain polygon.
  double radius = 0.0;
};
struct Disk2 { double radius = 0.0; };
struct Capsule2 { double radius = 0.0; double half_length = 0.0; };
struct HalfPlane2 {};

using Shape = std::variant<Sphere, Box, Capsule, Cylinder, Ellipsoid, Cone, HalfSpace, ConvexHull,
                           TriangleMesh, Polygon2, Disk2, Capsule2, HalfPlane2>;

/// The ShapeType of a Shape (the variant index order matches ShapeType).
inline ShapeType TypeOf(const Shape& s) { return static_cast<ShapeType>(s.index()); }

/// Empty when `shape` is a valid collision shape, else its first problem ("radius -0.1 must be
/// finite and > 0"). Rules: every size is finite; radii, half extents, heights and a cylinder's
/// half length are > 0 (a capsule's half length >= 0, a padding radius >= 0); a polygon's
/// offsets b are > 0 with at least 3 vertices; hulls and meshes have data with finite vertices.
/// A convex hull, or a mesh when `needs_volume`, must enclose a volume: one thinner than
/// kFlatVolumeRatio times its bounding-box diagonal cubed is flat (an open surface or a plate
/// of zero thickness has no inside, so penetration has no meaning). A padded hull (radius > 0)
/// has volume whatever its core.
std::string ValidateShape(const Shape& shape, bool needs_volume = true);

/// Volume / (bounding-box diagonal)^3 below which a hull or mesh counts as flat: roughly a
/// millionth of its size thick. A 1 m square plate 1 mm thick has 3.5e-4, a 10 um foil 3.5e-6.
inline constexpr double kFlatVolumeRatio = 1e-6;

/// Builds a Polygon2 from A p <= b (computes the vertices); throws InvalidArgument if the
/// polygon is empty, unbounded, or its origin is not strictly inside (some b_i <= 0).
Polygon2 MakePolygon2(const Eigen::Matrix<double, Eigen::Dynamic, 2>& A, const VecX& b);
/// Builds a Polygon2 from the vertices of a convex polygon (any order; hull taken).
Polygon2 MakePolygon2FromVertices(const Eigen::Matrix<double, Eigen::Dynamic, 2>& vertices);
/// Builds the padded polygon { p : A p <= b } (+) disk(radius). Same errors as MakePolygon2, and
/// InvalidArgument for a negative or non-finite radius.
Polygon2 MakePaddedPolygon2(const Eigen::Matrix<double, Eigen::Dynamic, 2>& A, const VecX& b,
                            double radius);

}  // namespace arena
