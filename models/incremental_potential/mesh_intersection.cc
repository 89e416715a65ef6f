#include "models/incremental_potential/mesh_intersection.h"

#include <cmath>
#include <vector>

#include "core/geometry/mesh_distance.h"

namespace arena {

namespace mesh_intersection {

// Whether a vertex of closed mesh `inner` lies inside `outer` (winding number above 3/4: an open
// ground face never reaches it).
bool Inside(const ContactConfiguration& x, int inner, int outer, const Aabb& outer_box) {
  const TrianglesX3& t = (*x.meshes)[inner].triangles;
  if (t.rows() == 0) return false;
  const Vec3 p = PointAt(x.world[inner], t(0, 0));
  return outer_box.Contains(p) && std::abs(WindingNumber(x.world[outer], (*x.meshes)[outer].triangles, p)) > 0.75;
}

}  // namespace mesh_intersection

bool MeshesIntersect(const ContactConfiguration& x, int a, int b) {
  using mesh_intersection::Inside;
  const PointsX3& va = x.world[a];
  const PointsX3& vb = x.world[b];
  const Aabb all_a = BoundsOf(va), all_b = BoundsOf(vb);  // no allocation: most pairs stop here, every step
  if (!all_a.Overlaps(all_b)) return false;
  const TrianglesX3& ta = (*x.meshes)[a].triangles;
  const TrianglesX3& tb = (*x.meshes)[b].triangles;
  const std::vector<Aabb> boxes_a = TriangleBoxes(va, ta), boxes_b = TriangleBoxes(vb, tb);
  for (int i = 0; i < ta.rows(); ++i) {
    const Aabb& box_i = boxes_a[static_cast<std::size_t>(i)];
    if (!box_i.Overlaps(all_b)) continue;
    for (int j = 0; j < tb.rows(); ++j) {
      if (!box_i.Overlaps(boxes_b[static_cast<std::size_t>(j)])) continue;
      const TrianglePairDistance d =
          TriangleTriangleDistance(PointAt(va, ta(i, 0)), PointAt(va, ta(i, 1)), PointAt(va, ta(i, 2)),
                                   PointAt(vb, tb(j, 0)), PointAt(vb, tb(j, 1)), PointAt(vb, tb(j, 2)));
      if (d.intersecting) return true;
    }
  }
  return Inside(x, a, b, all_b) || Inside(x, b, a, all_a);
}

}  // namespace arena
