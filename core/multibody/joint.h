// Joint types of the kinematic tree and their configuration-space conventions.
//
// A joint connects a parent body P to its child body C. Its frame J is fixed in P at
// `placement` (X_PJ); the child frame coincides with J moved by the joint: X_PC(q) = X_PJ * X_J(q).
// Velocities are the child's twist relative to the parent, expressed in the child frame
// (Lie-group convention, as in Pinocchio), ordered [omega; v]:
//
//   type       nq  nv  q                                v
//   fixed       0   0  -                                -
//   revolute    1   1  angle about `axis` (rad)         rate (rad/s)
//   prismatic   1   1  offset along `axis` (m)          rate (m/s)
//   ball        4   3  quaternion (w, x, y, z)          omega in the child frame
//   planar      3   3  (x, y, theta) in the J xy-plane  (omega_z, v_x, v_y) in the child frame
//   free        7   6  (x, y, z, qw, qx, qy, qz)        (omega, v) in the child frame
//
// The planar joint rotates about J's z axis and translates in J's xy-plane.
// integrate(q, v, dt) = q (+) exp(v dt) on each joint's group; difference is its inverse.
#pragma once

#include <limits>
#include <string>
#include <string_view>

#include "core/math/se3.h"

namespace arena {

enum class JointType { kFixed, kRevolute, kPrismatic, kBall, kPlanar, kFree };

std::string_view ToString(JointType type);

int JointNq(JointType type);
int JointNv(JointType type);

struct JointModel {
  JointType type = JointType::kFixed;
  std::string name;
  SE3 placement;                      // X_PJ: joint frame in the parent body frame
  Vec3 axis = Vec3::UnitZ();          // unit axis in J (revolute, prismatic)
  // Position limits (revolute / prismatic only); +-inf when unlimited.
  double lower = -std::numeric_limits<double>::infinity();
  double upper = std::numeric_limits<double>::infinity();
  double effort_limit = std::numeric_limits<double>::infinity();    // N or N m
  double velocity_limit = std::numeric_limits<double>::infinity();  // m/s or rad/s
  // Passive terms (1-DOF joints): tau = -stiffness (q - spring_reference) - damping qdot,
  // and `armature` (rotor inertia) added to the mass matrix diagonal.
  double damping = 0.0;          // N s/m or N m s/rad
  double stiffness = 0.0;        // N/m or N m/rad
  double spring_reference = 0.0;
  double armature = 0.0;         // kg or kg m^2

  int nq() const { return JointNq(type); }
  int nv() const { return JointNv(type); }
};

}  // namespace arena
