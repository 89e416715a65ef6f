#include "models/point_contact/contact_kernels.h"

#include <string>

#include "core/common/error.h"
#include "core/geometry/mesh.h"

namespace arena {

namespace contact {

namespace {

// The facet planes and a bounding sphere of a hull (centred at the middle of its bounding box).
void SetHull(std::shared_ptr<const ConvexHullData> hull, double padding, ColliderGeometry* g) {
  g->normals = hull->face_normals;
  g->offsets = hull->face_offsets;
  const Vec3 lo = hull->vertices.colwise().minCoeff().transpose();
  const Vec3 hi = hull->vertices.colwise().maxCoeff().transpose();
  g->bound_centre = 0.5 * (lo + hi);
  g->bound_radius = (hull->vertices.rowwise() - g->bound_centre.transpose()).rowwise().norm().maxCoeff();
  g->hull_shape = ConvexHull{hull, padding};
  g->hull = std::move(hull);
}

}  // namespace

SE3 ColliderPose(const MultibodyData& data, const Collider& collider) {
  return collider.body == kWorldBody ? collider.placement : data.X_WB[collider.body] * collider.placement;
}

Motion BodyWorldTwist(const MultibodyData& data, int body) {
  return body == kWorldBody ? Motion::Zero() : Motion(data.X_WB[body].ActMotion(data.V_B[body]));
}

ColliderGeometry MakeColliderGeometry(const Shape& shape) {
  ColliderGeometry g;
  g.type = TypeOf(shape);
  if (const auto* s = std::get_if<Sphere>(&shape)) {
    g.centres = Eigen::RowVector3d::Zero();
    g.radius = s->radius;
  } else if (const auto* d = std::get_if<Disk2>(&shape)) {
    g.centres = Eigen::RowVector3d::Zero();
    g.radius = d->radius;
  } else if (const auto* c = std::get_if<Capsule>(&shape)) {
    g.centres.resize(2, 3);
    g.centres << 0, 0, -c->half_length, 0, 0, c->half_length;
    g.radius = c->radius;
  } else if (const auto* c2 = std::get_if<Capsule2>(&shape)) {
    g.centres.resize(2, 3);
    g.centres << -c2->half_length, 0, 0, c2->half_length, 0, 0;
    g.radius = c2->radius;
  } else if (const auto* b = std::get_if<Box>(&shape)) {
    const Vec3& h = b->half_extents;
    g.normals.resize(6, 3);
    g.offsets.resize(6);
    for (int k = 0; k < 3; ++k) {
      g.normals.row(2 * k) = Vec3::Unit(k).transpose();
      g.normals.row(2 * k + 1) = -Vec3::Unit(k).transpose();
      g.offsets[2 * k] = g.offsets[2 * k + 1] = h[k];
    }
    g.vertices.resize(8, 3);
    for (int i = 0; i < 8; ++i) {
      g.vertices.row(i) << (i & 1 ? h.x() : -h.x()), (i & 2 ? h.y() : -h.y()), (i & 4 ? h.z() : -h.z());
    }
  } else if (const auto* p = std::get_if<Polygon2>(&shape)) {
    const int m = static_cast<int>(p->A.rows());
    g.normals = Eigen::Matrix<double, Eigen::Dynamic, 3>::Zero(m, 3);
    g.offsets.resize(m);
    for (int i = 0; i < m; ++i) {
      const double len = p->A.row(i).norm();
      g.normals.row(i).head<2>() = p->A.row(i) / len;
      g.offsets[i] = p->b[i] / len;
    }
    g.vertices = Eigen::Matrix<double, Eigen::Dynamic, 3>::Zero(p->vertices.rows(), 3);
    g.vertices.leftCols<2>() = p->vertices;
    g.radius = p->radius;  // padding of a padded polygon (0: plain)
  } else if (const auto* h = std::get_if<ConvexHull>(&shape)) {
    g.vertices = h->data->vertices;
    g.radius = h->radius;  // padding of a padded hull (0: plain)
    SetHull(h->data, h->radius, &g);
  } else if (const auto* m = std::get_if<TriangleMesh>(&shape)) {
    g.vertices = m->data->vertices;
    if (m->data->hull) {
      SetHull(m->data->hull, 0.0, &g);
    } else {  // a flat mesh: still fine against half-spaces and boxes, by its vertices
      g.hull_error = "its vertices are coplanar (a flat mesh has no inside)";
    }
  }
  return g;
}

bool SupportsPair(ShapeType a, ShapeType b) {
  using S = ShapeType;
  auto ordered = [](S x, S y) {
    // 3D
    if (x == S::kHalfSpace) {
      return y == S::kSphere || y == S::kBox || y == S::kCapsule || y == S::kConvexHull ||
             y == S::kMesh;
    }
    if (x == S::kSphere) return y == S::kSphere || y == S::kBox || y == S::kCapsule;
    if (x == S::kCapsule) return y == S::kCapsule;
    if (x == S::kBox) return y == S::kBox || y == S::kMesh || y == S::kConvexHull || y == S::kCapsule;
    if (x == S::kConvexHull || x == S::kMesh) return y == S::kConvexHull || y == S::kMesh;
    // 2D
    if (x == S::kHalfPlane2) return y == S::kPolygon2 || y == S::kDisk2 || y == S::kCapsule2;
    if (x == S::kDisk2) return y == S::kDisk2 || y == S::kPolygon2 || y == S::kCapsule2;
    if (x == S::kCapsule2) return y == S::kCapsule2;
    if (x == S::kPolygon2) return y == S::kPolygon2;
    return false;
  };
  return ordered(a, b) || ordered(b, a);
}

void CheckPairSupported(const std::string& model, const Scene& scene, int a, int b,
                        const std::vector<ColliderGeometry>& geometry) {
  const Collider& A = scene.colliders[a];
  const Collider& B = scene.colliders[b];
  const std::string pair = std::string(ToString(TypeOf(A.shape))) + "-" +
                           std::string(ToString(TypeOf(B.shape))) + " (colliders '" + A.name +
                           "' and '" + B.name + "')";
  if (!SupportsPair(TypeOf(A.shape), TypeOf(B.shape))) {
    throw Unsupported(model + ": no contact kernel for the pair " + pair);
  }
  if (detail::IsVertexCloud(TypeOf(A.shape)) && detail::IsVertexCloud(TypeOf(B.shape))) {
    for (int i : {a, b}) {
      if (!geometry[i].hull) {
        throw Unsupported(model + ": the pair " + pair + " collides as convex hulls, and '" +
                          scene.colliders[i].name + "' has none: " + geometry[i].hull_error);
      }
    }
  }
}

}  // namespace contact

}  // namespace arena
