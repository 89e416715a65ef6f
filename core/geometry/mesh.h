// Triangle meshes: vertices, triangles, unit face normals, an AABB tree over the triangles and
// the convex hull of the vertices (the convex shape that support-function code sees).
// Loaded from STL (binary and ASCII) and OBJ through assimp; identical vertices are joined.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "core/geometry/bvh.h"
#include "core/geometry/primitives.h"
#include "core/geometry/shape.h"

namespace arena {

struct TriangleMeshData {
  PointsX3 vertices;      // N x 3, in the shape frame
  TrianglesX3 triangles;  // M x 3 vertex indices, counter-clockwise outward
  PointsX3 face_normals;  // M x 3 unit normals; zero rows for zero-area triangles
  Bvh bvh;                // over the triangles
  Aabb bounds;            // of the vertices
  std::shared_ptr<const ConvexHullData> hull;  // of the vertices; null if they are coplanar
};

/// Builds a mesh (normals, BVH, hull). Throws InvalidArgument for no triangles, an index out
/// of range, or non-finite vertices.
TriangleMesh MakeTriangleMesh(const PointsX3& vertices, const TrianglesX3& triangles);

/// The closed box [-h, h] as 8 vertices and 12 outward triangles (a box given as a mesh, so
/// that it collides by the mesh rules of each model).
TriangleMesh MakeBoxMesh(const Vec3& half_extents);

/// Loads an STL (binary or ASCII) or OBJ file with assimp, joining identical vertices, merging
/// all meshes of the file (node transforms applied) and scaling the vertices per axis (a
/// negative scale product flips the winding to keep it outward). Throws ParseError naming the
/// file for a missing, unreadable or malformed file (assimp's message included) or a file
/// without triangles.
TriangleMesh LoadMesh(const std::string& path, const Vec3& scale = Vec3::Ones());

/// True if every edge is shared by exactly two triangles that traverse it in opposite
/// directions (a closed, consistently oriented surface: what MassProperties needs).
bool IsClosed(const TriangleMeshData& mesh);

/// Closest point of the mesh surface to p (exact point-triangle distances, BVH-accelerated).
struct MeshClosestPoint {
  int triangle = -1;
  Vec3 point = Vec3::Zero();
  double distance = std::numeric_limits<double>::infinity();
};
MeshClosestPoint ClosestPointOnMesh(const TriangleMeshData& mesh, const Vec3& p);

/// Triangles within distance `radius` of `center` (exact point-triangle distance), ascending.
std::vector<int> TrianglesWithinSphere(const TriangleMeshData& mesh, const Vec3& center,
                                       double radius);

}  // namespace arena
