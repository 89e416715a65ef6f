#include "core/geometry/convex_hull.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <set>
#include <string>
#include <vector>

extern "C" {
#include <libqhull_r/libqhull_r.h>
}

#include "core/common/error.h"
#include "core/geometry/mesh.h"

namespace arena {

namespace {

// One qhull facet: plane and the input ids of its vertices.
struct RawFacet {
  Vec3 normal = Vec3::Zero();
  double offset = 0.0;
  std::vector<int> ids;
};

// Runs qhull on the points; returns the facets, or throws with qhull's message. qhull's error
// stream goes to an in-memory buffer, so nothing reaches stdout or stderr.
std::vector<RawFacet> RunQhull(const PointsX3& points) {
  const int n = static_cast<int>(points.rows());
  std::vector<coordT> coords(3 * static_cast<size_t>(n));
  for (int i = 0; i < n; ++i) {
    for (int k = 0; k < 3; ++k) coords[3 * i + k] = points(i, k);
  }
  char* err_text = nullptr;
  size_t err_size = 0;
  FILE* err = open_memstream(&err_text, &err_size);
  if (err == nullptr) throw InvalidArgument("convex hull: cannot open a memory stream for qhull");

  qhT qh_storage;
  qhT* qh = &qh_storage;
  qh_zero(qh, err);
  char command[] = "qhull";  // default options: 3-d hull, coplanar facets merged (C-0)
  const int exitcode = qh_new_qhull(qh, 3, n, coords.data(), False, command, nullptr, err);
  std::vector<RawFacet> facets;
  if (exitcode == 0) {
    facetT* facet;
    vertexT *vertex, **vertexp;
    FORALLfacets {
      RawFacet f;
      for (int k = 0; k < 3; ++k) f.normal[k] = facet->normal[k];
      f.offset = -facet->offset;  // qhull: n . x + offset = 0 on the plane, n outward
      FOREACHvertex_(facet->vertices) { f.ids.push_back(qh_pointid(qh, vertex->point)); }
      facets.push_back(std::move(f));
    }
  }
  qh_freeqhull(qh, !qh_ALL);
  int curlong = 0, totlong = 0;
  qh_memfreeshort(qh, &curlong, &totlong);
  std::fclose(err);
  std::string message(err_text != nullptr ? err_text : "", err_size);
  std::free(err_text);
  if (exitcode != 0) {
    // Keep qhull's first line (its error code and summary).
    const size_t start = message.find_first_not_of(" \n");
    message = start == std::string::npos ? "" : message.substr(start);
    message = message.substr(0, message.find('\n'));
    throw InvalidArgument(
        "convex hull: the points do not span 3 dimensions (coplanar or degenerate input); "
        "qhull exit code " +
        std::to_string(exitcode) + ": " + message);
  }
  return facets;
}

}  // namespace

ConvexHull MakeConvexHull(const PointsX3& points) {
  const int n = static_cast<int>(points.rows());
  if (n < 4) {
    throw InvalidArgument("convex hull: need at least 4 points, got " + std::to_string(n));
  }
  if (!points.allFinite()) throw InvalidArgument("convex hull: non-finite point coordinates");

  std::vector<RawFacet> facets = RunQhull(points);

  // Hull vertices in input order.
  std::set<int> ids;
  for (const RawFacet& f : facets) ids.insert(f.ids.begin(), f.ids.end());
  std::map<int, int> index_of;
  auto data = std::make_shared<ConvexHullData>();
  data->vertices.resize(static_cast<int>(ids.size()), 3);
  for (int id : ids) {
    const int k = static_cast<int>(index_of.size());
    index_of[id] = k;
    data->vertices.row(k) = points.row(id);
    data->input_indices.push_back(id);
  }
  data->interior_point = data->vertices.colwise().mean().transpose();

  const int nf = static_cast<int>(facets.size());
  data->face_normals.resize(nf, 3);
  data->face_offsets.resize(nf);
  std::set<std::pair<int, int>> edges;
  for (int fi = 0; fi < nf; ++fi) {
    const RawFacet& f = facets[fi];
    const Vec3 nrm = f.normal.normalized();
    // Order the facet's vertices counter-clockwise about the outward normal.
    std::vector<int> verts;
    Vec3 center = Vec3::Zero();
    for (int id : f.ids) {
      verts.push_back(index_of.at(id));
      center += points.row(id).transpose();
    }
    center /= static_cast<double>(verts.size());
    const Vec3 u = AnyOrthogonal(nrm), w = nrm.cross(u);
    std::vector<std::pair<double, int>> by_angle;
    double offset = -std::numeric_limits<double>::infinity();
    for (int v : verts) {
      const Vec3 d = data->vertices.row(v).transpose() - center;
      by_angle.emplace_back(std::atan2(d.dot(w), d.dot(u)), v);
      offset = std::max(offset, nrm.dot(data->vertices.row(v).transpose()));
    }
    std::sort(by_angle.begin(), by_angle.end());
    data->face_normals.row(fi) = nrm.transpose();
    data->face_offsets[fi] = offset;
    const int m = static_cast<int>(by_angle.size());
    double scale2 = 0.0;
    for (int k = 0; k < m; ++k) {
      const int a = by_angle[k].second, b = by_angle[(k + 1) % m].second;
      edges.emplace(std::min(a, b), std::max(a, b));
      scale2 = std::max(scale2, (data->vertices.row(a) - data->vertices.row(b)).squaredNorm());
    }
    // Fan triangulation; triangles of (numerically) zero area are skipped.
    const int a = by_angle[0].second;
    for (int k = 1; k + 1 < m; ++k) {
      const int b = by_angle[k].second, c = by_angle[k + 1].second;
      const Vec3 pa = data->vertices.row(a), pb = data->vertices.row(b), pc = data->vertices.row(c);
      const Vec3 cr = (pb - pa).cross(pc - pa);
      if (!(cr.norm() > 1e-14 * scale2)) continue;
      if (cr.dot(nrm) >= 0.0) {
        data->triangles.emplace_back(a, b, c);
      } else {
        data->triangles.emplace_back(a, c, b);
      }
      data->triangle_faces.push_back(fi);
    }
  }
  data->edges.assign(edges.begin(), edges.end());
  data->vertex_neighbors.resize(ids.size());
  for (const auto& [a, b] : data->edges) {
    data->vertex_neighbors[a].push_back(b);
    data->vertex_neighbors[b].push_back(a);
  }
  for (auto& nb : data->vertex_neighbors) std::sort(nb.begin(), nb.end());
  return ConvexHull{std::move(data)};
}

ConvexHull ConvexHullOfMesh(const TriangleMesh& mesh) {
  if (!mesh.data) throw InvalidArgument("convex hull: mesh has no data");
  return MakeConvexHull(mesh.data->vertices);
}

int HullSupportVertex(const ConvexHullData& hull, const Vec3& dir) {
  const int n = static_cast<int>(hull.vertices.rows());
  if (n == 0) return -1;
  if (n <= 32 || hull.vertex_neighbors.size() != static_cast<size_t>(n)) {
    int best = 0;
    double best_value = hull.vertices.row(0).dot(dir);
    for (int i = 1; i < n; ++i) {
      const double v = hull.vertices.row(i).dot(dir);
      if (v > best_value) {
        best_value = v;
        best = i;
      }
    }
    return best;
  }
  // Hill climbing: a vertex with no strictly better neighbour maximises a linear function over
  // a convex polytope (the edge directions at a vertex span a cone containing the polytope).
  int current = 0;
  double value = hull.vertices.row(0).dot(dir);
  for (int step = 0; step < n; ++step) {
    int next = -1;
    for (int nb : hull.vertex_neighbors[current]) {
      const double v = hull.vertices.row(nb).dot(dir);
      if (v > value) {
        value = v;
        next = nb;
      }
    }
    if (next < 0) break;
    current = next;
  }
  return current;
}

}  // namespace arena
