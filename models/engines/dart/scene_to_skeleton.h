// A Scene as DART 6.12 Skeletons, and our State in DART's joint coordinates.
//
// Bodies: one Skeleton per tree hanging from the world (so DART's constraint solver sees
// separate islands), plus one immobile Skeleton "world_geometry" whose WeldJoint body carries
// the colliders fixed to the world. Each joint keeps our frames: T_ParentBodyToJoint = X_PJ,
// T_ChildBodyToJoint = identity (the child frame is J moved by the joint), so DART's
// relative transform X_PJ Q(q) equals ours. A massless body on a fixed joint (a URDF frame
// link such as Atlas's camera optical frames) gets no BodyNode of its own: its colliders and
// children ride on its parent's node, which is the same rigid body (DART warns about
// zero-mass BodyNodes).
//
// Coordinates (ours -> DART):
//   free       (p, quaternion), body twist [w; v]  ->  FreeJoint [log R; p], the same twist
//   ball       quaternion, body angular velocity   ->  BallJoint log R, the same velocity
//   revolute / prismatic: identical
//   planar     (x, y, theta), (w_z, v_B)          ->  PlanarJoint (x, y, theta), (R v_B, w_z)
//   fixed      -                                   ->  WeldJoint
// Generalized forces map by the transpose of the velocity map.
//
// Shapes: sphere, box, cylinder, ellipsoid as DART's primitives (full sizes); a capsule as
// the union of a cylinder and two end spheres (DART 6.12's FCL detector has no capsule); a
// cone as a triangle mesh of `cone_segments` sides (its ConeShape finds no contacts); a
// half-space as a large box whose top face is the plane; hulls and meshes as MeshShapes built
// from our vertices and triangles. 2D shapes are refused.
#pragma once

#include <memory>
#include <unordered_map>
#include <vector>

#include <dart/dynamics/SmartPointer.hpp>

#include "core/scene/scene.h"

namespace dart::dynamics {
class ShapeFrame;
}

namespace arena::dart_engine {

struct SkeletonOptions {
  bool enforce_joint_limits = true;  // finite revolute / prismatic limits -> JointLimitConstraint
  double half_space_extent = 100.0;  // m, half side of the box standing in for a half-space
  double half_space_depth = 1.0;     // m, half thickness of that box
  int cone_segments = 32;            // sides of the cone's base polygon
};

struct SceneSkeletons {
  std::vector<dart::dynamics::SkeletonPtr> skeletons;  // trees first, world geometry last
  std::vector<dart::dynamics::Joint*> joints;          // per body: its joint (null if merged)
  std::vector<dart::dynamics::BodyNode*> bodies;       // per body: the node carrying it
  // Collider index of every ShapeNode (a capsule has three).
  std::unordered_map<const dart::dynamics::ShapeFrame*, int> collider_of;
};

/// Builds the skeletons. Throws Unsupported naming the collider or joint for a 2D shape or a
/// joint with armature (DART 6.12 has no rotor inertia).
SceneSkeletons BuildSkeletons(const Scene& scene, const SkeletonOptions& options);

/// Writes q and v into the joints (positions and velocities of every skeleton).
void SetJointState(const Scene& scene, const SceneSkeletons& skeletons, const State& state);

/// Reads q and v back. Quaternions take the sign closest to the ones already in `state->q`
/// (a rotation matrix does not carry the sign), so a trajectory stays continuous.
void GetJointState(const Scene& scene, const SceneSkeletons& skeletons, State* state);

/// Sets the joint forces from generalized forces tau (ours, dual to v).
void SetJointForces(const Scene& scene, const SceneSkeletons& skeletons, const State& state,
                    const VecX& tau);

}  // namespace arena::dart_engine
