#include "models/engines/dart/scene_to_skeleton.h"

#include <array>
#include <cmath>
#include <numbers>
#include <string>

#include <assimp/scene.h>
#include <dart/dynamics/BallJoint.hpp>
#include <dart/dynamics/BodyNode.hpp>
#include <dart/dynamics/BoxShape.hpp>
#include <dart/dynamics/CylinderShape.hpp>
#include <dart/dynamics/EllipsoidShape.hpp>
#include <dart/dynamics/FreeJoint.hpp>
#include <dart/dynamics/Inertia.hpp>
#include <dart/dynamics/MeshShape.hpp>
#include <dart/dynamics/PlanarJoint.hpp>
#include <dart/dynamics/PrismaticJoint.hpp>
#include <dart/dynamics/RevoluteJoint.hpp>
#include <dart/dynamics/ShapeNode.hpp>
#include <dart/dynamics/Skeleton.hpp>
#include <dart/dynamics/SphereShape.hpp>
#include <dart/dynamics/WeldJoint.hpp>

#include "core/common/error.h"
#include "core/common/options.h"
#include "core/geometry/mesh.h"

namespace arena::dart_engine {

namespace {

namespace dd = dart::dynamics;

using Triangles = std::vector<std::array<int, 3>>;

Eigen::Isometry3d ToIsometry(const SE3& X) {
  Eigen::Isometry3d T = Eigen::Isometry3d::Identity();
  T.linear() = X.rotation();
  T.translation() = X.translation();
  return T;
}

// An assimp scene holding one triangle mesh. MeshShape takes ownership and frees it with
// aiReleaseImport, which deletes a scene that no importer owns (so plain new is right here).
const aiScene* MakeAiScene(const PointsX3& vertices, const Triangles& triangles) {
  auto* scene = new aiScene;
  scene->mRootNode = new aiNode;
  scene->mRootNode->mNumMeshes = 1;
  scene->mRootNode->mMeshes = new unsigned int[1]{0};
  scene->mNumMaterials = 1;
  scene->mMaterials = new aiMaterial*[1]{new aiMaterial};
  auto* mesh = new aiMesh;
  scene->mNumMeshes = 1;
  scene->mMeshes = new aiMesh*[1]{mesh};
  mesh->mPrimitiveTypes = aiPrimitiveType_TRIANGLE;
  mesh->mMaterialIndex = 0;
  mesh->mNumVertices = static_cast<unsigned int>(vertices.rows());
  mesh->mVertices = new aiVector3D[mesh->mNumVertices];
  for (Eigen::Index i = 0; i < vertices.rows(); ++i) {
    mesh->mVertices[i] = aiVector3D(vertices(i, 0), vertices(i, 1), vertices(i, 2));
  }
  mesh->mNumFaces = static_cast<unsigned int>(triangles.size());
  mesh->mFaces = new aiFace[mesh->mNumFaces];
  for (size_t f = 0; f < triangles.size(); ++f) {
    mesh->mFaces[f].mNumIndices = 3;
    mesh->mFaces[f].mIndices = new unsigned int[3];
    for (int k = 0; k < 3; ++k) mesh->mFaces[f].mIndices[k] = static_cast<unsigned int>(triangles[f][k]);
  }
  return scene;
}

std::shared_ptr<dd::MeshShape> MakeMeshShape(const PointsX3& vertices, const Triangles& triangles) {
  return std::make_shared<dd::MeshShape>(Eigen::Vector3d::Ones(), MakeAiScene(vertices, triangles));
}

// Our cone (base of radius r at z = -h/4, apex at z = 3h/4) as a closed triangle mesh whose
// base is the inscribed regular polygon of `segments` sides.
std::shared_ptr<dd::MeshShape> MakeConeMesh(const Cone& cone, int segments) {
  PointsX3 vertices(segments + 2, 3);
  const double z_base = -0.25 * cone.height;
  for (int i = 0; i < segments; ++i) {
    const double angle = 2.0 * std::numbers::pi * i / segments;
    vertices.row(i) << cone.radius * std::cos(angle), cone.radius * std::sin(angle), z_base;
  }
  const int apex = segments, centre = segments + 1;
  vertices.row(apex) << 0.0, 0.0, 0.75 * cone.height;
  vertices.row(centre) << 0.0, 0.0, z_base;
  Triangles triangles;
  for (int i = 0; i < segments; ++i) {
    const int j = (i + 1) % segments;
    triangles.push_back({i, j, apex});
    triangles.push_back({centre, j, i});
  }
  return MakeMeshShape(vertices, triangles);
}

// The DART shapes of one collider with their placements in the collider frame S.
std::vector<std::pair<dd::ShapePtr, Eigen::Isometry3d>> MakeShapes(const Collider& collider,
                                                                   const SkeletonOptions& options) {
  using Parts = std::vector<std::pair<dd::ShapePtr, Eigen::Isometry3d>>;
  const Eigen::Isometry3d I = Eigen::Isometry3d::Identity();
  const auto shifted = [](double z) {
    Eigen::Isometry3d T = Eigen::Isometry3d::Identity();
    T.translation().z() = z;
    return T;
  };
  const Shape& shape = collider.shape;
  if (const auto* s = std::get_if<Sphere>(&shape)) {
    return Parts{{std::make_shared<dd::SphereShape>(s->radius), I}};
  }
  if (const auto* b = std::get_if<Box>(&shape)) {
    return Parts{{std::make_shared<dd::BoxShape>(2.0 * b->half_extents), I}};
  }
  if (const auto* c = std::get_if<Capsule>(&shape)) {
    return Parts{{std::make_shared<dd::CylinderShape>(c->radius, 2.0 * c->half_length), I},
                 {std::make_shared<dd::SphereShape>(c->radius), shifted(-c->half_length)},
                 {std::make_shared<dd::SphereShape>(c->radius), shifted(c->half_length)}};
  }
  if (const auto* c = std::get_if<Cylinder>(&shape)) {
    return Parts{{std::make_shared<dd::CylinderShape>(c->radius, 2.0 * c->half_length), I}};
  }
  if (const auto* e = std::get_if<Ellipsoid>(&shape)) {
    return Parts{{std::make_shared<dd::EllipsoidShape>(2.0 * e->radii), I}};
  }
  if (const auto* c = std::get_if<Cone>(&shape)) {
    return Parts{{MakeConeMesh(*c, options.cone_segments), I}};
  }
  if (std::holds_alternative<HalfSpace>(shape)) {
    const Vec3 size(2.0 * options.half_space_extent, 2.0 * options.half_space_extent,
                    2.0 * options.half_space_depth);
    return Parts{{std::make_shared<dd::BoxShape>(size), shifted(-options.half_space_depth)}};
  }
  if (const auto* h = std::get_if<ConvexHull>(&shape)) {
    if (h->radius > 0.0) {
      throw Unsupported("dart: collider '" + collider.name +
                        "' is a padded convex hull (hull (+) ball), which DART has no shape for");
    }
    Triangles triangles;
    for (const Eigen::Vector3i& t : h->data->triangles) triangles.push_back({t[0], t[1], t[2]});
    return Parts{{MakeMeshShape(h->data->vertices, triangles), I}};
  }
  if (const auto* m = std::get_if<TriangleMesh>(&shape)) {
    Triangles triangles;
    for (Eigen::Index i = 0; i < m->data->triangles.rows(); ++i) {
      triangles.push_back({m->data->triangles(i, 0), m->data->triangles(i, 1), m->data->triangles(i, 2)});
    }
    return Parts{{MakeMeshShape(m->data->vertices, triangles), I}};
  }
  throw Unsupported("dart: collider '" + collider.name + "' has the 2D shape '" +
                    std::string(ToString(TypeOf(shape))) + "'; the dart model simulates 3D scenes only");
}

dd::Inertia ToInertia(const SpatialInertia& inertia) {
  return dd::Inertia(inertia.mass(), inertia.com(), inertia.inertia_com());
}

// Creates the joint of `body` and its BodyNode under `parent` (null: a new tree root), the
// joint frame at X_parent_J in the parent node's frame.
std::pair<dd::Joint*, dd::BodyNode*> CreateBody(const dd::SkeletonPtr& skeleton, dd::BodyNode* parent,
                                                const BodyModel& body, const SE3& X_parent_J) {
  const JointModel& jm = body.joint;
  std::pair<dd::Joint*, dd::BodyNode*> out;
  switch (jm.type) {
    case JointType::kFixed:
      out = skeleton->createJointAndBodyNodePair<dd::WeldJoint>(parent);
      break;
    case JointType::kRevolute: {
      auto [joint, node] = skeleton->createJointAndBodyNodePair<dd::RevoluteJoint>(parent);
      joint->setAxis(jm.axis);
      out = {joint, node};
      break;
    }
    case JointType::kPrismatic: {
      auto [joint, node] = skeleton->createJointAndBodyNodePair<dd::PrismaticJoint>(parent);
      joint->setAxis(jm.axis);
      out = {joint, node};
      break;
    }
    case JointType::kBall:
      out = skeleton->createJointAndBodyNodePair<dd::BallJoint>(parent);
      break;
    case JointType::kPlanar:
      out = skeleton->createJointAndBodyNodePair<dd::PlanarJoint>(parent);  // the XY plane
      break;
    case JointType::kFree:
      out = skeleton->createJointAndBodyNodePair<dd::FreeJoint>(parent);
      break;
  }
  auto [joint, node] = out;
  joint->setName(jm.name.empty() ? body.name + "_joint" : jm.name);
  joint->setTransformFromParentBodyNode(ToIsometry(X_parent_J));
  joint->setTransformFromChildBodyNode(Eigen::Isometry3d::Identity());
  node->setName(body.name);
  node->setInertia(ToInertia(body.inertia));
  return out;
}

// Before any BodyNode exists, so that a rejected scene leaves no DART warnings behind.
void CheckJointsSupported(const MultibodyModel& model) {
  for (int b = 0; b < model.num_bodies(); ++b) {
    const BodyModel& body = model.body(b);
    if (body.joint.armature != 0.0) {
      throw Unsupported("dart: joint '" + body.joint.name + "' of body '" + body.name + "' has armature " +
                        options_detail::FormatDouble(body.joint.armature) + "; DART 6.12 has no rotor inertia");
    }
  }
}

void SetPassiveTerms(const BodyModel& body, const SkeletonOptions& options, dd::Joint* joint) {
  const JointModel& jm = body.joint;
  if (jm.nv() != 1) return;
  // DART integrates joint springs and dampers implicitly (in the articulated inertia).
  joint->setDampingCoefficient(0, jm.damping);
  joint->setSpringStiffness(0, jm.stiffness);
  joint->setRestPosition(0, jm.spring_reference);
  if (std::isfinite(jm.lower)) joint->setPositionLowerLimit(0, jm.lower);
  if (std::isfinite(jm.upper)) joint->setPositionUpperLimit(0, jm.upper);
  const bool limited = std::isfinite(jm.lower) || std::isfinite(jm.upper);
  joint->setLimitEnforcement(options.enforce_joint_limits && limited);
}

void AddColliderShapes(const Collider& collider, int index, const SkeletonOptions& options,
                       const Eigen::Isometry3d& X_BS, dd::BodyNode* node, SceneSkeletons* out) {
  for (const auto& [shape, X_SD] : MakeShapes(collider, options)) {
    dd::ShapeNode* shape_node =
        node->createShapeNodeWith<dd::CollisionAspect, dd::DynamicsAspect>(shape);
    shape_node->setRelativeTransform(X_BS * X_SD);
    shape_node->getDynamicsAspect()->setFrictionCoeff(collider.friction);
    shape_node->getDynamicsAspect()->setRestitutionCoeff(collider.restitution);
    out->collider_of[shape_node] = index;
  }
}

// The quaternion of R with the sign closest to `previous` (w, x, y, z).
Quat AlignedQuaternion(const Mat3& R, const double* previous) {
  Quat q(R);
  const double dot = q.w() * previous[0] + q.x() * previous[1] + q.y() * previous[2] + q.z() * previous[3];
  if (dot < 0.0) q.coeffs() *= -1.0;
  return q;
}

Mat3 QuaternionRotation(const double* q) {
  return Quat(q[0], q[1], q[2], q[3]).normalized().toRotationMatrix();
}

}  // namespace

SceneSkeletons BuildSkeletons(const Scene& scene, const SkeletonOptions& options) {
  const MultibodyModel& model = scene.model;
  CheckJointsSupported(model);
  SceneSkeletons out;
  out.joints.assign(model.num_bodies(), nullptr);
  out.bodies.assign(model.num_bodies(), nullptr);
  // X_NB: each body's frame in the frame of the BodyNode that carries it (identity unless the
  // body was merged into its parent's node).
  std::vector<SE3> X_NB(model.num_bodies());
  for (int b = 0; b < model.num_bodies(); ++b) {
    const BodyModel& body = model.body(b);
    if (body.parent != kWorldBody && body.joint.type == JointType::kFixed && body.inertia.mass() == 0.0) {
      // A massless body welded to its parent (a URDF frame link) rides on the parent's node:
      // the same rigid body, without a zero-mass BodyNode (which DART warns about).
      out.bodies[b] = out.bodies[body.parent];
      X_NB[b] = X_NB[body.parent] * body.joint.placement;
      continue;
    }
    dd::SkeletonPtr skeleton;
    dd::BodyNode* parent = nullptr;
    SE3 X_parent_J = body.joint.placement;
    if (body.parent == kWorldBody) {
      skeleton = dd::Skeleton::create(body.name);
      out.skeletons.push_back(skeleton);
    } else {
      parent = out.bodies[body.parent];
      skeleton = parent->getSkeleton();
      X_parent_J = X_NB[body.parent] * body.joint.placement;
    }
    auto [joint, node] = CreateBody(skeleton, parent, body, X_parent_J);
    SetPassiveTerms(body, options, joint);
    out.joints[b] = joint;
    out.bodies[b] = node;
  }
  dd::BodyNode* world_node = nullptr;
  for (size_t c = 0; c < scene.colliders.size(); ++c) {
    const Collider& collider = scene.colliders[c];
    dd::BodyNode* node = nullptr;
    SE3 X_NS = collider.placement;
    if (collider.body == kWorldBody) {
      if (world_node == nullptr) {
        dd::SkeletonPtr world = dd::Skeleton::create("world_geometry");
        world->setMobile(false);
        world_node = world->createJointAndBodyNodePair<dd::WeldJoint>().second;
        world_node->setName("world_geometry");
        out.skeletons.push_back(world);
      }
      node = world_node;
    } else {
      node = out.bodies[collider.body];
      X_NS = X_NB[collider.body] * collider.placement;
    }
    AddColliderShapes(collider, static_cast<int>(c), options, ToIsometry(X_NS), node, &out);
  }
  return out;
}

void SetJointState(const Scene& scene, const SceneSkeletons& skeletons, const State& state) {
  for (int b = 0; b < scene.model.num_bodies(); ++b) {
    const BodyModel& body = scene.model.body(b);
    dd::Joint* joint = skeletons.joints[b];
    const double* q = state.q.data() + body.idx_q;
    switch (body.joint.type) {
      case JointType::kFixed:
        break;
      case JointType::kRevolute:
      case JointType::kPrismatic:
        joint->setPosition(0, q[0]);
        joint->setVelocity(0, state.v[body.idx_v]);
        break;
      case JointType::kBall:
        joint->setPositions(dd::BallJoint::convertToPositions(QuaternionRotation(q)));
        joint->setVelocities(state.v.segment<3>(body.idx_v));
        break;
      case JointType::kPlanar: {
        joint->setPositions(Vec3(q[0], q[1], q[2]));
        const Vec2 v_J = Eigen::Rotation2Dd(q[2]) * state.v.segment<2>(body.idx_v + 1);
        joint->setVelocities(Vec3(v_J.x(), v_J.y(), state.v[body.idx_v]));
        break;
      }
      case JointType::kFree: {
        Eigen::Isometry3d T = Eigen::Isometry3d::Identity();
        T.linear() = QuaternionRotation(q + 3);
        T.translation() = Vec3(q[0], q[1], q[2]);
        joint->setPositions(dd::FreeJoint::convertToPositions(T));
        joint->setVelocities(state.v.segment<6>(body.idx_v));
        break;
      }
    }
  }
}

void GetJointState(const Scene& scene, const SceneSkeletons& skeletons, State* state) {
  for (int b = 0; b < scene.model.num_bodies(); ++b) {
    const BodyModel& body = scene.model.body(b);
    const dd::Joint* joint = skeletons.joints[b];
    double* q = state->q.data() + body.idx_q;
    switch (body.joint.type) {
      case JointType::kFixed:
        break;
      case JointType::kRevolute:
      case JointType::kPrismatic:
        q[0] = joint->getPosition(0);
        state->v[body.idx_v] = joint->getVelocity(0);
        break;
      case JointType::kBall: {
        const Quat quat = AlignedQuaternion(dd::BallJoint::convertToRotation(joint->getPositions()), q);
        Eigen::Map<Vec4>{q} << quat.w(), quat.x(), quat.y(), quat.z();
        state->v.segment<3>(body.idx_v) = joint->getVelocities();
        break;
      }
      case JointType::kPlanar: {
        const Eigen::VectorXd p = joint->getPositions(), dp = joint->getVelocities();
        Eigen::Map<Vec3>{q} = p;
        state->v[body.idx_v] = dp[2];
        state->v.segment<2>(body.idx_v + 1) = Eigen::Rotation2Dd(-p[2]) * Vec2(dp[0], dp[1]);
        break;
      }
      case JointType::kFree: {
        const Eigen::Isometry3d T = dd::FreeJoint::convertToTransform(joint->getPositions());
        const Quat quat = AlignedQuaternion(T.linear(), q + 3);
        Eigen::Map<Vec3>{q} = T.translation();
        Eigen::Map<Vec4>{q + 3} << quat.w(), quat.x(), quat.y(), quat.z();
        state->v.segment<6>(body.idx_v) = joint->getVelocities();
        break;
      }
    }
  }
}

void SetJointForces(const Scene& scene, const SceneSkeletons& skeletons, const State& state,
                    const VecX& tau) {
  for (int b = 0; b < scene.model.num_bodies(); ++b) {
    const BodyModel& body = scene.model.body(b);
    dd::Joint* joint = skeletons.joints[b];
    const int nv = body.joint.nv();
    if (nv == 0) continue;
    if (body.joint.type == JointType::kPlanar) {
      // tau = (n_z, f_B); DART's coordinates (x, y, theta) take (R f_B, n_z).
      const double theta = state.q[body.idx_q + 2];
      const Vec2 f_J = Eigen::Rotation2Dd(theta) * tau.segment<2>(body.idx_v + 1);
      joint->setForces(Vec3(f_J.x(), f_J.y(), tau[body.idx_v]));
    } else {
      joint->setForces(tau.segment(body.idx_v, nv));
    }
  }
}

}  // namespace arena::dart_engine
