// The geometry the contact kernels (models/point_contact/contact_kernels.h) work on: scalar-generic poses and
// contact points, and each collider's precomputed geometry.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include <Eigen/Core>
#include <unsupported/Eigen/AutoDiff>

#include "core/geometry/shape.h"
#include "core/multibody/data.h"
#include "core/scene/scene.h"

namespace arena::contact {

template <class T> using V3 = Eigen::Matrix<T, 3, 1>;
template <class T> using M3 = Eigen::Matrix<T, 3, 3>;

inline double Val(double x) { return x; }
template <class D>
double Val(const Eigen::AutoDiffScalar<D>& x) { return x.value(); }

template <class T>
struct PoseT {
  M3<T> R;
  V3<T> p;
  V3<T> Act(const Vec3& x_S) const { return R * x_S.cast<T>() + p; }
};

template <class T>
struct ContactPointT {
  V3<T> p_W;
  V3<T> n_W;
  T phi;
};

/// Precomputed geometry of one collider (built once, shared read-only by every step):
/// a polytope as unit face normals + offsets (n . x <= offset) and its vertices, or the
/// centres and radius of the sphere-swept primitives. A padded polygon is its core polytope
/// with `radius` as padding (its vertices are then sphere-swept points too). 2D shapes are
/// lifted to z = 0. A hull or a mesh also carries its convex hull (qhull; a mesh's facets are
/// those of the hull of its vertices) for the hull-hull kernel (models/point_contact/hull_contacts.h).
struct ColliderGeometry {
  ShapeType type = ShapeType::kSphere;
  Eigen::Matrix<double, Eigen::Dynamic, 3> normals;   // polytopes (box, polygon2), hull facets
  VecX offsets;
  Eigen::Matrix<double, Eigen::Dynamic, 3> vertices;  // polytopes, hulls and meshes (all of its)
  Eigen::Matrix<double, Eigen::Dynamic, 3> centres;   // sphere, disk, capsule end points
  double radius = 0.0;  // sphere-swept primitives; padding of a padded polygon or hull (0: plain)
  // Hulls and meshes: the hull, as data and as a shape for GJK (null when a mesh has no volume:
  // `hull_error` says why), and a bounding sphere of the core in the collider's frame.
  std::shared_ptr<const ConvexHullData> hull;
  Shape hull_shape;
  std::string hull_error;
  Vec3 bound_centre = Vec3::Zero();
  double bound_radius = 0.0;
};

/// Throws InvalidArgument for a shape the kernels cannot represent; a mesh whose hull is flat
/// gets no hull (hull_error), since it still collides with half-spaces and boxes by its vertices.
ColliderGeometry MakeColliderGeometry(const Shape& shape);

/// A collider's world pose X_WS after ForwardKinematics (its placement for environment shapes).
SE3 ColliderPose(const MultibodyData& data, const Collider& collider);

/// A body's world twist [omega; v] about the world origin after ForwardKinematics (zero for the
/// world): a point x of the body moves at v + omega x x.
Motion BodyWorldTwist(const MultibodyData& data, int body);

/// The pair table. Order-independent: Contacts() swaps A and B when only (B, A) is written.
bool SupportsPair(ShapeType a, ShapeType b);

/// Throws Unsupported naming `model` and the colliders when the pair (a, b) of `scene` has no
/// kernel, or is a hull pair of which one side has no hull.
void CheckPairSupported(const std::string& model, const Scene& scene, int a, int b,
                        const std::vector<ColliderGeometry>& geometry);

}  // namespace arena::contact
