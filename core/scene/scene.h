// Scene (static description, like MuJoCo's mjModel), State and Control.
//
// A Scene owns the kinematic tree (MultibodyModel, with gravity), the colliders attached to
// bodies or to the world, the actuators, and named design parameters. Models never change
// a Scene; they read it through a shared_ptr<const Scene>.
#pragma once

#include <cstdint>
#include <limits>
#include <string>
#include <utility>
#include <vector>

#include "core/geometry/shape.h"
#include "core/multibody/model.h"

namespace arena {

struct Collider {
  std::string name;
  int body = kWorldBody;       // owning body, or kWorldBody for fixed environment geometry
  SE3 placement;               // X_BS: shape frame in the body frame (in world for kWorldBody)
  Shape shape;
  double friction = 0.5;       // Coulomb coefficient; a pair uses the smaller of the two
  double restitution = 0.0;    // a pair uses the larger of the two
  // Pair filter: A and B may collide iff (A.group & B.mask) && (B.group & A.mask).
  std::uint32_t group = 1;
  std::uint32_t mask = 0xffffffffu;
};

enum class ActuatorType { kTorque, kPdTarget };

/// Drives one DOF of one joint. u is the torque/force (times gear) or the PD target.
struct Actuator {
  std::string name;
  ActuatorType type = ActuatorType::kTorque;
  int body = 0;           // the actuated joint is this body's joint
  int dof = 0;            // which DOF of that joint (0 for 1-DOF joints)
  double gear = 1.0;      // torque actuators: tau = gear * u
  double kp = 0.0;        // PD actuators: tau = kp (u - q) - kd qdot
  double kd = 0.0;
  double ctrl_lower = -std::numeric_limits<double>::infinity();  // u is clamped to these
  double ctrl_upper = std::numeric_limits<double>::infinity();
};

/// A named scalar a co-design experiment may differentiate with respect to.
struct DesignParameter {
  std::string name;
  double value = 0.0;
  double lower = -std::numeric_limits<double>::infinity();
  double upper = std::numeric_limits<double>::infinity();
};

class Scene {
 public:
  std::string name;
  std::string source;              // file it came from, or "builtin:<name>"
  MultibodyModel model;            // bodies, joints, gravity
  std::vector<Collider> colliders;
  std::vector<Actuator> actuators;
  std::vector<DesignParameter> design;
  VecX default_q;                  // initial configuration (empty: model.Neutral())
  double timestep_hint = 0.0;      // s; the file's own timestep (MJCF <option>), 0 if none
  // Body pairs that never collide (parent-child pairs are excluded automatically).
  std::vector<std::pair<int, int>> excluded_body_pairs;

  int nq() const { return model.nq(); }
  int nv() const { return model.nv(); }
  int nu() const { return static_cast<int>(actuators.size()); }

  /// True when every body moves in its world plane (planar joint on the world) or is fixed
  /// to the world, and every collider is a 2D shape: the scene of the planar experiments.
  bool IsPlanar() const;
  /// Whether colliders a and b are tested for contact (filter, same body, parent-child,
  /// excluded pairs, both fixed to the world).
  bool CanCollide(int a, int b) const;
  /// All collider pairs (a < b) with CanCollide(a, b).
  std::vector<std::pair<int, int>> CollisionPairs() const;

  /// Throws InvalidArgument naming the first problem: a body with DOFs and non-positive
  /// mass, a non-finite value, an actuator on a missing joint, a 2D shape on a non-planar body.
  void Validate() const;
};

/// Dynamic state (like mjData's qpos/qvel): see core/multibody/joint.h for the layout.
struct State {
  VecX q;
  VecX v;
  double t = 0.0;
};

/// One entry per actuator of the scene; an empty vector means all zero.
struct Control {
  VecX u;
};

/// The scene's default state: default_q (or neutral), zero velocity, t = 0.
State DefaultState(const Scene& scene);

/// Throws InvalidArgument if the state has the wrong size or a non-finite entry (naming it).
void ValidateState(const Scene& scene, const State& state);

/// The first non-finite entry of a state as text ("v[3] = nan"), or "" when all are finite.
std::string FirstNonFiniteEntry(const State& state);

}  // namespace arena
