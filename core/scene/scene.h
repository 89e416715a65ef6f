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

/// kTorque: tau = gear u. kPdTarget: a position target, tau = kp (u - q) - kd qdot.
/// kVelocityTarget: a velocity target, tau = kd (u - qdot) (MuJoCo's <velocity kv=...>; the PD
/// energy with velocity targets of seeds 003 and 004); its kp must be 0.
enum class ActuatorType { kTorque, kPdTarget, kVelocityTarget };

/// Drives one DOF of one joint. u is the torque/force (times gear), the position target or the
/// velocity target. On a planar joint, DOF 0 is the rotation theta; DOF 1 and 2 are x and y: a
/// position or velocity target there acts on the world coordinate x or y (a force along the
/// plane's axis), a torque actuator pushes along the body's own x or y axis.
struct Actuator {
  std::string name;
  ActuatorType type = ActuatorType::kTorque;
  int body = 0;           // the actuated joint is this body's joint
  int dof = 0;            // which DOF of that joint (0 for 1-DOF joints); planar: see below
  double gear = 1.0;      // torque actuators: tau = gear * u
  double kp = 0.0;        // PD actuators: tau = kp (u - q) - kd qdot
  double kd = 0.0;
  double ctrl_lower = -std::numeric_limits<double>::infinity();  // u is clamped to these
  double ctrl_upper = std::numeric_limits<double>::infinity();
};

/// Every actuator is affine in its control and its joint's state:
///   tau = ControlGain(a) u - PositionGain(a) q - VelocityGain(a) qdot.
double ControlGain(const Actuator& a);
double PositionGain(const Actuator& a);
double VelocityGain(const Actuator& a);
/// "torque", "pd_target", "velocity_target".
const char* ToString(ActuatorType type);

/// Why Scene::CanCollide says no to a collider pair: the first rule that excludes it, in the
/// order below (kNone: the pair is tested).
enum class PairExclusion {
  kNone,
  kGroupMask,     // Collider::group / mask
  kSameBody,      // one body (or two world colliders)
  kParentChild,   // a body and its parent
  kExcludedPair,  // Scene::excluded_body_pairs (MJCF <exclude>, --exclude, SRDF)
  kSameTree,      // Scene::self_collision == false and both bodies in one tree
  kDefaultPoseOverlap,  // Scene::default_pose_overlaps (file scenes: core/scene/initial_overlaps.h)
};
/// "group/mask", "same body", "parent-child", "excluded pair", "same tree", "default-pose
/// overlap", "" for kNone.
const char* ToString(PairExclusion exclusion);

/// A named scalar a co-design experiment may differentiate with respect to.
struct DesignParameter {
  std::string name;
  double value = 0.0;
  double lower = -std::numeric_limits<double>::infinity();
  double upper = std::numeric_limits<double>::infinity();
};

/// A finding of Scene::Check: an error (the scene is physically invalid and is rejected) or a
/// warning (legal but suspicious; `arena inspect --strict` reports them).
struct SceneIssue {
  enum class Severity { kError, kWarning };
  /// What the issue is about: the scene as a whole, a body (its mass distribution over the
  /// tree), a body's inertia, a body's joint, a collider, an actuator or a design parameter.
  enum class Subject { kScene, kBody, kInertia, kJoint, kCollider, kActuator, kDesign };
  Severity severity = Severity::kError;
  Subject subject = Subject::kScene;
  int index = -1;       // body (kBody, kInertia, kJoint), collider, actuator or design parameter
  std::string problem;  // what is wrong, with the offending values
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
  // Body pairs that never collide (parent-child pairs are excluded automatically); kWorldBody
  // stands for the world's colliders.
  std::vector<std::pair<int, int>> excluded_body_pairs;
  // false: two bodies of one tree never collide. A tree is a body directly under the world
  // (on any joint, fixed included) with everything below it, so a fixed-base arm's links skip
  // each other but still meet a free box, the world's colliders, and a ground body welded to
  // the world (its own tree). Trees are not merged through the world: bodies welded to it
  // would otherwise swallow the ground and every fixed-base robot into one tree.
  bool self_collision = true;
  // Body pairs of one robot whose colliders overlap at its default configuration, left out as
  // robot set-up tools leave them (core/scene/initial_overlaps.h); filled for scenes loaded from
  // files unless skip_default_overlaps=false.
  std::vector<std::pair<int, int>> default_pose_overlaps;

  int nq() const { return model.nq(); }
  int nv() const { return model.nv(); }
  int nu() const { return static_cast<int>(actuators.size()); }

  /// True when every body moves in its world plane (planar joint on the world) or is fixed
  /// to the world, and every collider is a 2D shape: the scene of the planar experiments.
  bool IsPlanar() const;
  /// Whether colliders a and b are tested for contact: Exclusion(a, b) == kNone. Every model
  /// asks this (or CollisionPairs), so the rules hold for all of them.
  bool CanCollide(int a, int b) const;
  /// The first rule that keeps colliders a and b from being tested (PairExclusion's order).
  /// O(depth of the tree) when self_collision is false, O(1 + excluded pairs) otherwise.
  PairExclusion Exclusion(int a, int b) const;
  /// All collider pairs (a < b) with CanCollide(a, b).
  std::vector<std::pair<int, int>> CollisionPairs() const;
  /// The body directly under the world whose tree holds `body` (itself if it is one);
  /// kWorldBody for kWorldBody.
  int TreeRoot(int body) const;

  /// Every rule below, applied to the whole scene: the errors (bodies, colliders, actuators,
  /// design parameters, the scene, then the mass matrix once all else passed), or, when there
  /// is none, the warnings. The rules are the same for scenes loaded from URDF, MJCF or mesh
  /// files and for scenes built in code.
  ///
  /// Errors (physically invalid or unusable):
  ///   - any non-finite number: gravity, timestep hint, mass, centre of mass, inertia, joint
  ///     placement, axis, limits, passive terms, collider placement and size, mesh vertices,
  ///     friction, actuator gains and ranges, design values, default_q;
  ///   - inertia (ValidateInertia): mass >= 0; rotational inertia symmetric with principal
  ///     moments >= 0 satisfying the triangle inequality; no rotational inertia without mass;
  ///   - a body that moves with no mass in its subtree, and more generally a joint-space mass
  ///     matrix that is singular at the default configuration (e.g. a free body with mass but
  ///     zero rotational inertia): some DOF would move nothing;
  ///   - joints (ValidateJoint): unit axis, lower <= upper, positive effort and velocity limits,
  ///     damping, stiffness and armature >= 0, limits only on 1-DOF joints;
  ///   - colliders: an existing body, a rigid placement, friction >= 0, restitution in [0, 1],
  ///     a valid shape (ValidateShape; hulls, and meshes on moving bodies, need a volume), 2D
  ///     shapes only on planar bodies;
  ///   - actuators on an existing DOF with finite gear, kp, kd >= 0 and a valid control range;
  ///     design parameters with lower <= value <= upper; default_q of size nq with unit
  ///     quaternions; excluded pairs naming existing bodies.
  /// Warnings (legal but suspicious):
  ///   - a moving body without mass of its own whose children carry all of the inertia (a
  ///     link without <inertial>?), except the massless links of a joint chain that stands
  ///     for one body with several joints ("<body>/<joint>", as MJCF multi-joint bodies become);
  ///   - a collider smaller than 1 mm or larger than 1 km (wrong units?);
  ///   - body masses spanning a ratio above 1e4 (ill-conditioned contact and joint solves);
  ///   - an inertia that meets the triangle inequality only within its tolerance;
  ///   - a joint whose limits leave no range (lower == upper), and a default configuration
  ///     outside the joint limits;
  ///   - an actuator that can do nothing (gear 0, or kp = kd = 0).
  std::vector<SceneIssue> Check() const;

  /// Throws InvalidArgument for the first error of Check(), as
  /// "scene 'name': <Describe(issue)>: <problem>".
  void Validate() const;

  /// What an issue is about: "body 'arm'", "inertia of body 'arm'", "joint 'elbow' of body
  /// 'arm'", "collider 'foot'", "actuator 'motor'", "design parameter 'mass'", or "" for the
  /// scene as a whole.
  std::string Describe(const SceneIssue& issue) const;

 private:
  // Exclusion with the bodies' tree roots precomputed (CollisionPairs), or computed on demand.
  PairExclusion Exclusion(int a, int b, const std::vector<int>* roots) const;
};

/// Empty when `inertia` is physically valid, else the problem: mass finite and >= 0, centre of
/// mass finite, rotational inertia finite and symmetric with principal moments I1 <= I2 <= I3
/// that are >= 0 and satisfy the triangle inequality I1 + I2 >= I3 (it holds for every mass
/// distribution, since I1 + I2 - I3 = 2 * sum m z^2 along the third principal axis), and zero
/// when the mass is zero. Both the sign test and the triangle inequality allow
/// kInertiaRelativeTolerance times I3.
std::string ValidateInertia(const SpatialInertia& inertia);

/// Relative tolerance of ValidateInertia: room for files that print their inertias to six
/// significant digits (a flat plate sits exactly on the limit I1 + I2 = I3). Real mistakes (a
/// swapped or mistyped entry, mixed units) break the inequality by orders of magnitude more;
/// the tightest link of the Atlas URDF has I1 + I2 - I3 = 0.11 I3.
inline constexpr double kInertiaRelativeTolerance = 1e-6;

/// Empty when `joint` is valid, else the problem (see Scene::Check).
std::string ValidateJoint(const JointModel& joint);

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
