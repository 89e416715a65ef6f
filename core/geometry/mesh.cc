#include "core/geometry/mesh.h"

#include <assimp/config.h>
#include <assimp/postprocess.h>
#include <assimp/scene.h>

#include <algorithm>
#include <array>
#include <assimp/Importer.hpp>
#include <map>
#include <utility>

#include "core/common/error.h"
#include "core/common/input_file.h"
#include "core/geometry/convex_hull.h"

namespace arena {

namespace {


}  // namespace

TriangleMesh MakeTriangleMesh(const PointsX3& vertices, const TrianglesX3& triangles) {
  const int n = static_cast<int>(vertices.rows());
  const int m = static_cast<int>(triangles.rows());
  if (m == 0) throw InvalidArgument("mesh: no triangles");
  if (!vertices.allFinite()) throw InvalidArgument("mesh: non-finite vertex coordinates");
  for (int t = 0; t < m; ++t) {
    for (int k = 0; k < 3; ++k) {
      if (triangles(t, k) < 0 || triangles(t, k) >= n) {
        throw InvalidArgument("mesh: triangle " + std::to_string(t) + " has vertex index " +
                              std::to_string(triangles(t, k)) + " outside [0, " +
                              std::to_string(n) + ")");
      }
    }
  }
  auto data = std::make_shared<TriangleMeshData>();
  data->vertices = vertices;
  data->triangles = triangles;
  data->face_normals = PointsX3::Zero(m, 3);
  for (int t = 0; t < m; ++t) {
    const Vec3 a = PointAt(vertices, triangles(t, 0)), b = PointAt(vertices, triangles(t, 1)),
               c = PointAt(vertices, triangles(t, 2));
    const Vec3 cr = (b - a).cross(c - a);
    const double len = cr.norm();
    if (len > 0.0) data->face_normals.row(t) = (cr / len).transpose();
  }
  for (int i = 0; i < n; ++i) data->bounds.Extend(PointAt(vertices, i));
  data->bvh = Bvh::FromTriangles(data->vertices, data->triangles);
  if (n >= 4) {
    try {
      data->hull = MakeConvexHull(vertices).data;
    } catch (const InvalidArgument&) {
      data->hull = nullptr;  // flat mesh: support functions scan the vertices
    }
  }
  return TriangleMesh{std::move(data)};
}

TriangleMesh MakeBoxMesh(const Vec3& half_extents) {
  PointsX3 vertices(8, 3);
  for (int i = 0; i < 8; ++i) {  // bit k of i: the sign along axis k
    for (int k = 0; k < 3; ++k) vertices(i, k) = (i >> k & 1) ? half_extents[k] : -half_extents[k];
  }
  TrianglesX3 triangles(12, 3);
  triangles << 0, 2, 3, 0, 3, 1,  // -z
      4, 5, 7, 4, 7, 6,           // +z
      0, 1, 5, 0, 5, 4,           // -y
      2, 6, 7, 2, 7, 3,           // +y
      0, 4, 6, 0, 6, 2,           // -x
      1, 3, 7, 1, 7, 5;           // +x
  return MakeTriangleMesh(vertices, triangles);
}

TriangleMesh LoadMesh(const std::string& path, const Vec3& scale) {
  if (!scale.allFinite() || (scale.array() == 0.0).any()) {
    throw InvalidArgument("mesh '" + path + "': scale components must be finite and nonzero");
  }
  CheckInputFile(path, "mesh file (STL or OBJ)");

  Assimp::Importer importer;
  // Drop per-corner attributes so that JoinIdenticalVertices joins by position alone (STL
  // gives every corner its face normal otherwise).
  importer.SetPropertyInteger(AI_CONFIG_PP_RVC_FLAGS,
                              aiComponent_NORMALS | aiComponent_TANGENTS_AND_BITANGENTS |
                                  aiComponent_COLORS | aiComponent_TEXCOORDS);
  const unsigned flags = aiProcess_RemoveComponent | aiProcess_JoinIdenticalVertices |
                         aiProcess_Triangulate | aiProcess_PreTransformVertices |
                         aiProcess_ValidateDataStructure;
  const aiScene* scene = importer.ReadFile(path, flags);
  if (scene == nullptr || (scene->mFlags & AI_SCENE_FLAGS_INCOMPLETE) != 0) {
    const std::string why = importer.GetErrorString();
    throw ParseError(path, "",
                     "cannot read the mesh (assimp: " +
                         (why.empty() ? std::string("no scene") : why) +
                         "); give a valid binary or ASCII STL, or an OBJ file");
  }

  // Merge all meshes, joining vertices with bit-identical (scaled) positions.
  std::map<std::array<double, 3>, int> index_of;
  std::vector<Vec3> verts;
  std::vector<std::array<int, 3>> tris;
  const bool flip = scale.prod() < 0.0;
  for (unsigned mi = 0; mi < scene->mNumMeshes; ++mi) {
    const aiMesh* mesh = scene->mMeshes[mi];
    std::vector<int> local(mesh->mNumVertices);
    for (unsigned v = 0; v < mesh->mNumVertices; ++v) {
      const aiVector3D& p = mesh->mVertices[v];
      const Vec3 q = Vec3(p.x, p.y, p.z).cwiseProduct(scale);
      const auto [it, inserted] =
          index_of.try_emplace({q.x(), q.y(), q.z()}, static_cast<int>(verts.size()));
      if (inserted) verts.push_back(q);
      local[v] = it->second;
    }
    for (unsigned f = 0; f < mesh->mNumFaces; ++f) {
      const aiFace& face = mesh->mFaces[f];
      if (face.mNumIndices != 3) continue;  // points and lines
      std::array<int, 3> t = {local[face.mIndices[0]], local[face.mIndices[1]],
                              local[face.mIndices[2]]};
      if (flip) std::swap(t[1], t[2]);
      tris.push_back(t);
    }
  }
  if (tris.empty()) {
    throw ParseError(path, "", "the file contains no triangles (only points or lines); a "
                               "collider needs a triangulated surface");
  }
  if (!std::all_of(verts.begin(), verts.end(), [](const Vec3& v) { return v.allFinite(); })) {
    throw ParseError(path, "", "non-finite vertex coordinates");
  }
  PointsX3 V(static_cast<int>(verts.size()), 3);
  for (size_t i = 0; i < verts.size(); ++i) V.row(static_cast<int>(i)) = verts[i].transpose();
  TrianglesX3 T(static_cast<int>(tris.size()), 3);
  for (size_t i = 0; i < tris.size(); ++i) {
    T.row(static_cast<int>(i)) << tris[i][0], tris[i][1], tris[i][2];
  }
  return MakeTriangleMesh(V, T);
}

bool IsClosed(const TriangleMeshData& mesh) {
  std::vector<std::pair<int, int>> directed;
  const int m = static_cast<int>(mesh.triangles.rows());
  directed.reserve(3 * static_cast<size_t>(m));
  for (int t = 0; t < m; ++t) {
    for (int k = 0; k < 3; ++k) {
      const int a = mesh.triangles(t, k), b = mesh.triangles(t, (k + 1) % 3);
      if (a == b) return false;
      directed.emplace_back(a, b);
    }
  }
  std::sort(directed.begin(), directed.end());
  if (std::adjacent_find(directed.begin(), directed.end()) != directed.end()) return false;
  for (const auto& [a, b] : directed) {
    if (!std::binary_search(directed.begin(), directed.end(), std::make_pair(b, a))) return false;
  }
  return !directed.empty();
}

MeshClosestPoint ClosestPointOnMesh(const TriangleMeshData& mesh, const Vec3& p) {
  auto closest = [&](int t) {
    return ClosestPointOnTriangle(p, PointAt(mesh.vertices, mesh.triangles(t, 0)),
                                  PointAt(mesh.vertices, mesh.triangles(t, 1)),
                                  PointAt(mesh.vertices, mesh.triangles(t, 2)))
        .point;
  };
  const Bvh::Nearest nearest =
      mesh.bvh.FindNearest(p, [&](int t) { return (closest(t) - p).squaredNorm(); });
  MeshClosestPoint out;
  if (nearest.primitive < 0) return out;
  out.triangle = nearest.primitive;
  out.point = closest(nearest.primitive);
  out.distance = (out.point - p).norm();
  return out;
}

std::vector<int> TrianglesWithinSphere(const TriangleMeshData& mesh, const Vec3& center,
                                       double radius) {
  std::vector<int> candidates;
  mesh.bvh.QuerySphere(center, radius, &candidates);
  std::vector<int> out;
  for (int t : candidates) {
    const Vec3 q = ClosestPointOnTriangle(center, PointAt(mesh.vertices, mesh.triangles(t, 0)),
                                          PointAt(mesh.vertices, mesh.triangles(t, 1)),
                                          PointAt(mesh.vertices, mesh.triangles(t, 2)))
                       .point;
    if ((q - center).squaredNorm() <= radius * radius) out.push_back(t);
  }
  return out;
}

}  // namespace arena
