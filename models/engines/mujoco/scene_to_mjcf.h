// Scene -> MJCF text for MuJoCo 2.2.2, the model the `mujoco` simulator compiles.
//
// Bodies. Each of our bodies becomes a MuJoCo <body> placed at its joint frame X_PJ, so at
// q = 0 our body frame and MuJoCo's coincide and hinge / slide / ball coordinates are the same
// numbers (joint.h: the child frame is J moved by the joint; MuJoCo moves a body about its
// joints' anchors in the body frame). A free joint becomes <joint type="free"> (MuJoCo's qpos
// is then the body's world pose; the simulator composes it with X_PJ). A fixed joint becomes a
// body without joints (welded). Inertia: <inertial pos quat mass diaginertia>, diagonalised here
// (scene_to_mjcf.cc says why not fullinertia); compiler inertiafromgeom="false": geoms carry no
// mass.
//
// Multi-joint chains. MuJoCo rejects a moving body without mass, but our MJCF loader turns a
// multi-joint MuJoCo body into a chain of massless bodies (half_cheetah's rootx, rootz, rooty).
// A massless, collider-free body on a hinge / slide / ball joint whose only child hangs from it
// by a pure translation d (and also moves on a hinge / slide / ball joint) is merged into that
// child: one MuJoCo body with both joints, the later joint's anchor `pos` at the accumulated
// translation D. This is exact: T(d) G(q) = [T(D) G(q) T(-D)] T(D) moves the same frame, so the
// merged body's frame is the chain's first joint frame and the last body's content (inertia,
// colliders, children) is placed at T(D) in it.
//
// Contact. Every geom has contype = conaffinity = 0 and every collider pair of
// Scene::CollisionPairs() is an explicit <pair>, so the filter (groups, masks, excluded and
// parent-child pairs) is ours, not MuJoCo's bitmask rule. The pair's friction is the smaller of
// the two colliders' (our rule; MuJoCo's default combination takes the larger), sliding only
// (condim 3; condim 1 when that friction is 0). Softness is MuJoCo's default (solref 0.02 1,
// solimp 0.9 0.95 0.001, margin 0). Restitution has no MuJoCo counterpart and is dropped.
//
// Shapes: sphere, box, capsule, cylinder, ellipsoid (MuJoCo's axis conventions are ours), the
// half-space as a plane geom (MuJoCo allows planes on static bodies only), convex hulls and
// triangle meshes as <mesh vertex="..."> (MuJoCo collides with a mesh's convex hull, so a
// triangle mesh is written as the vertices of its hull; MuJoCo stores them as float).
// Planar scenes: a planar joint (on the world) becomes slide x, slide y, hinge z; a polygon a
// prism (a mesh), a disk a cylinder, both 1 m deep along z; the half-plane a plane geom turned
// so that its normal is +y. An actuator on a planar DOF drives the joint of that coordinate.
// Unsupported (Unsupported error naming the collider or joint): cones (no MuJoCo 2.2.2 geom),
// padded polygons and 2D capsules, planar joints below another body, free joints below the
// world, half-spaces on moving bodies, actuators on ball and free joints, and torques along a
// planar body's own x or y axis.
#pragma once

#include <string>
#include <vector>

#include "core/scene/scene.h"

namespace arena {

/// The generated MJCF and the names it gives the scene's objects (found again by mj_name2id).
struct MjcfTranslation {
  std::string xml;
  std::vector<std::string> joint_names;     // per body; "" for fixed joints; planar: the x slide
  std::vector<std::string> actuator_names;  // per actuator
  std::vector<std::string> geom_names;      // per collider
  int num_pairs = 0;                        // explicit contact pairs written
  int max_contacts = 0;                     // <size nconmax>
  int max_constraint_rows = 0;              // <size njmax>
};

/// Translates `scene` (validated by the caller). Throws Unsupported naming what MuJoCo 2.2.2
/// cannot represent.
MjcfTranslation SceneToMjcf(const Scene& scene);

}  // namespace arena
