#include "models/ip/mesh_intersection.h"

#include <cmath>
#include <vector>

#include "core/geometry/mesh_distance.h"

namespace arena {

namespace mesh_intersection {

Vec3 Vertex(const ContactConfiguration& x, int mesh, int v) { return x.world[mesh].row(v).transpose(); }

std::vector<Aabb> TriangleBoxes(const ContactConfiguration& x, int mesh) {
  const TrianglesX3& t = (*x.meshes)[mesh].triangles;
  std::vector<Aabb> boxes(static_cast<std::size_t>(t.rows()));
  for (int i = 0; i < t.rows(); ++i) {
    for (int k = 0; k < 3; ++k) boxes[static_cast<std::size_t>(i)].Extend(Vertex(x, mesh, t(i, k)));
  }
  return boxes;
}

// The box of the mesh's vertices (no allocation: most pairs stop here, every step).
Aabb MeshBox(const ContactConfiguration& x, int mesh) {
  Aabb box;
  for (int v = 0; v < x.world[mesh].rows(); ++v) box.Extend(Vertex(x, mesh, v));
  return box;
}

// The generalised winding number of mesh m's triangles at p (solid angles by Van Oosterom and
// Strackee's formula, over 4 pi).
double Winding(const ContactConfiguration& x, int m, const Vec3& p) {
  const TrianglesX3& t = (*x.meshes)[m].triangles;
  double sum = 0.0;
  for (int i = 0; i < t.rows(); ++i) {
    const Vec3 a = Vertex(x, m, t(i, 0)) - p, b = Vertex(x, m, t(i, 1)) - p, c = Vertex(x, m, t(i, 2)) - p;
    const double la = a.norm(), lb = b.norm(), lc = c.norm();
    const double num = a.dot(b.cross(c));
    const double den = la * lb * lc + a.dot(b) * lc + b.dot(c) * la + c.dot(a) * lb;
    sum += 2.0 * std::atan2(num, den);
  }
  return sum / (4.0 * M_PI);
}

bool Inside(const ContactConfiguration& x, int inner, int outer, const Aabb& outer_box) {
  if ((*x.meshes)[inner].triangles.rows() == 0) return false;
  const Vec3 p = Vertex(x, inner, (*x.meshes)[inner].triangles(0, 0));
  return outer_box.Contains(p) && std::abs(Winding(x, outer, p)) > 0.75;
}

}  // namespace mesh_intersection

bool MeshesIntersect(const ContactConfiguration& x, int a, int b) {
  using namespace mesh_intersection;
  const Aabb all_a = MeshBox(x, a), all_b = MeshBox(x, b);
  if (!all_a.Overlaps(all_b)) return false;
  const std::vector<Aabb> boxes_a = TriangleBoxes(x, a), boxes_b = TriangleBoxes(x, b);
  const TrianglesX3& ta = (*x.meshes)[a].triangles;
  const TrianglesX3& tb = (*x.meshes)[b].triangles;
  for (int i = 0; i < ta.rows(); ++i) {
    if (!boxes_a[static_cast<std::size_t>(i)].Overlaps(all_b)) continue;
    for (int j = 0; j < tb.rows(); ++j) {
      if (!boxes_a[static_cast<std::size_t>(i)].Overlaps(boxes_b[static_cast<std::size_t>(j)])) continue;
      const TrianglePairDistance d =
          TriangleTriangleDistance(Vertex(x, a, ta(i, 0)), Vertex(x, a, ta(i, 1)), Vertex(x, a, ta(i, 2)),
                                   Vertex(x, b, tb(j, 0)), Vertex(x, b, tb(j, 1)), Vertex(x, b, tb(j, 2)));
      if (d.intersecting) return true;
    }
  }
  return Inside(x, a, b, all_b) || Inside(x, b, a, all_a);
}

}  // namespace arena
