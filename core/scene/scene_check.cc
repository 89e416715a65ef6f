// Scene::Check, Validate and Describe, and the rules they share with the loaders:
// ValidateInertia and ValidateJoint (ValidateShape is core/geometry/shape.h's). The rules are
// listed in scene.h. The mass-matrix test: the joint-space inertia matrix M(q) of a tree
// (Featherstone, "Rigid Body Dynamics Algorithms", 2008, Ch. 6) is positive definite exactly
// when every DOF moves some mass or inertia the earlier DOFs do not, so the first vanishing
// pivot of its Cholesky factorisation names a DOF that moves nothing.
#include <fmt/format.h>

#include <Eigen/Eigenvalues>
#include <algorithm>
#include <cmath>
#include <limits>
#include <string>
#include <utility>
#include <vector>

#include "core/common/error.h"
#include "core/geometry/mesh.h"
#include "core/multibody/data.h"
#include "core/multibody/dynamics.h"
#include "core/scene/scene.h"

namespace arena {

namespace {

using Severity = SceneIssue::Severity;
using Subject = SceneIssue::Subject;

// Thresholds of the warnings (Scene::Check): collider sizes outside [kSmallest, kLargest] are
// probably in the wrong unit (mm meshes, km typos); mass ratios above kMassRatio make the
// contact and joint solves of every model ill-conditioned.
constexpr double kSmallestColliderSize = 1e-3;  // m
constexpr double kLargestColliderSize = 1e3;    // m
constexpr double kMassRatio = 1e4;

// A DOF whose pivot in the Cholesky factorisation of M (in DOF order) is below this fraction of
// its diagonal entry moves nothing the earlier DOFs do not: M is singular to working precision
// (condition number above 1e12, where a double solve has no correct digit left).
constexpr double kSingularPivot = 1e-12;

std::string Vec3Text(const Vec3& v) { return fmt::format("({}, {}, {})", v.x(), v.y(), v.z()); }

// Empty when X is a finite rigid transform (orthonormal rotation with determinant 1).
std::string PlacementProblem(const SE3& X) {
  if (!X.translation().allFinite()) return "position " + Vec3Text(X.translation()) + " is not finite";
  const Mat3& R = X.rotation();
  if (!R.allFinite()) return "orientation is not finite";
  if (!(R.transpose() * R).isApprox(Mat3::Identity(), 1e-9) || !(R.determinant() > 0.0)) {
    return "orientation is not a rotation matrix";
  }
  return "";
}

bool IsRotation(int dof, JointType type) {
  switch (type) {
    case JointType::kRevolute: return true;
    case JointType::kBall: return true;
    case JointType::kPlanar: return dof == 0;
    case JointType::kFree: return dof < 3;
    default: return false;
  }
}

// "rotation about z", "translation along x", ... of DOF k of a joint (joint.h's layout).
std::string DofName(const JointModel& joint, int k) {
  static const char* kAxes = "xyz";
  switch (joint.type) {
    case JointType::kRevolute: return "rotation about its axis";
    case JointType::kPrismatic: return "translation along its axis";
    case JointType::kBall: return std::string("rotation about ") + kAxes[k];
    case JointType::kPlanar:
      return k == 0 ? std::string("rotation about z") : std::string("translation along ") + kAxes[k - 1];
    case JointType::kFree:
      return k < 3 ? std::string("rotation about ") + kAxes[k]
                   : std::string("translation along ") + kAxes[k - 3];
    default: return "DOF " + std::to_string(k);
  }
}

// The block of a ball or free joint's quaternion in q, or -1.
int QuaternionOffset(JointType type) {
  if (type == JointType::kBall) return 0;
  if (type == JointType::kFree) return 3;
  return -1;
}

// A link of a joint chain that stands for one body with several joints (the MJCF loader's
// "<body>/<joint>" links, loader.h; the nimble scenes' planar carriers): massless by design,
// named "<owner>/<part>", with one child that is the next link ("<owner>/...") or the owner.
bool IsJointChainLink(const MultibodyModel& model, int b) {
  const std::string& name = model.body(b).name;
  const size_t slash = name.rfind('/');
  if (slash == std::string::npos || slash == 0) return false;
  const std::string owner = name.substr(0, slash);
  int children = 0;
  bool next_in_chain = false;
  for (int i = b + 1; i < model.num_bodies(); ++i) {
    if (model.body(i).parent != b) continue;
    ++children;
    const std::string& child = model.body(i).name;
    next_in_chain = child == owner || child.rfind(owner + "/", 0) == 0;
  }
  return children == 1 && next_in_chain;
}

// Largest extent of a shape (m), for the unit warning; 0 for unbounded shapes.
double ShapeSize(const Shape& shape) {
  switch (TypeOf(shape)) {
    case ShapeType::kSphere: return 2.0 * std::get<Sphere>(shape).radius;
    case ShapeType::kBox: return 2.0 * std::get<Box>(shape).half_extents.maxCoeff();
    case ShapeType::kCapsule: {
      const Capsule& c = std::get<Capsule>(shape);
      return 2.0 * (c.radius + c.half_length);
    }
    case ShapeType::kCylinder: {
      const Cylinder& c = std::get<Cylinder>(shape);
      return 2.0 * std::max(c.radius, c.half_length);
    }
    case ShapeType::kEllipsoid: return 2.0 * std::get<Ellipsoid>(shape).radii.maxCoeff();
    case ShapeType::kCone: return std::max(2.0 * std::get<Cone>(shape).radius, std::get<Cone>(shape).height);
    case ShapeType::kConvexHull: {
      const ConvexHull& h = std::get<ConvexHull>(shape);
      const auto& V = h.data->vertices;
      return (V.colwise().maxCoeff() - V.colwise().minCoeff()).norm() + 2.0 * h.radius;
    }
    case ShapeType::kMesh: {
      const TriangleMeshData& d = *std::get<TriangleMesh>(shape).data;
      return (d.bounds.upper - d.bounds.lower).norm();
    }
    case ShapeType::kPolygon2: {
      const Polygon2& p = std::get<Polygon2>(shape);
      return (p.vertices.colwise().maxCoeff() - p.vertices.colwise().minCoeff()).norm() + 2.0 * p.radius;
    }
    case ShapeType::kDisk2: return 2.0 * std::get<Disk2>(shape).radius;
    case ShapeType::kCapsule2: {
      const Capsule2& c = std::get<Capsule2>(shape);
      return 2.0 * (c.radius + c.half_length);
    }
    default: return 0.0;
  }
}

// Bodies, then colliders, then actuators and design parameters, then the scene: each rule
// pushes what it finds into `out`.
class SceneChecker {
 public:
  explicit SceneChecker(const Scene& scene) : scene_(scene), model_(scene.model) {}

  std::vector<SceneIssue> Run() {
    CheckBodies();
    CheckColliders();
    CheckActuators();
    CheckScene();
    if (CountErrors() == 0) CheckMassMatrix();
    if (CountErrors() == 0) Warn();  // warnings only for a scene without errors
    return std::move(issues_);
  }

 private:
  void Add(Severity severity, Subject subject, int index, std::string problem) {
    issues_.push_back(SceneIssue{severity, subject, index, std::move(problem)});
  }
  void Error(Subject subject, int index, std::string problem) {
    Add(Severity::kError, subject, index, std::move(problem));
  }
  void Warning(Subject subject, int index, std::string problem) {
    Add(Severity::kWarning, subject, index, std::move(problem));
  }
  int CountErrors() const {
    return static_cast<int>(std::count_if(issues_.begin(), issues_.end(), [](const SceneIssue& i) {
      return i.severity == Severity::kError;
    }));
  }

  void CheckBodies() {
    for (int k = 0; k < model_.num_bodies(); ++k) {
      const BodyModel& b = model_.body(k);
      if (std::string p = ValidateInertia(b.inertia); !p.empty()) Error(Subject::kInertia, k, p);
      if (std::string p = ValidateJoint(b.joint); !p.empty()) Error(Subject::kJoint, k, p);
      if (b.joint.nv() > 0 && !(SubtreeMass(k) > 0.0)) {
        Error(Subject::kBody, k,
              fmt::format("moves ({} joint '{}') but neither it nor any body below it has mass; "
                          "give it a mass, or fix it to its parent",
                          ToString(b.joint.type), b.joint.name));
      }
    }
  }

  double SubtreeMass(int k) const {
    double mass = 0.0;
    for (int i = k; i < model_.num_bodies(); ++i) {
      if (model_.IsInSubtree(i, k)) mass += model_.body(i).inertia.mass();
    }
    return mass;
  }

  void CheckColliders() {
    for (int k = 0; k < static_cast<int>(scene_.colliders.size()); ++k) {
      const Collider& c = scene_.colliders[k];
      if (c.body < kWorldBody || c.body >= model_.num_bodies()) {
        Error(Subject::kCollider, k, "body index " + std::to_string(c.body) + " does not exist");
        continue;
      }
      if (std::string p = PlacementProblem(c.placement); !p.empty()) {
        Error(Subject::kCollider, k, "placement: " + p);
      }
      if (!(c.friction >= 0.0) || !std::isfinite(c.friction)) {
        Error(Subject::kCollider, k, fmt::format("friction {} must be finite and >= 0", c.friction));
      }
      if (!(c.restitution >= 0.0 && c.restitution <= 1.0)) {
        Error(Subject::kCollider, k, fmt::format("restitution {} must be in [0, 1]", c.restitution));
      }
      const bool on_world = c.body == kWorldBody;
      if (std::string p = ValidateShape(c.shape, /*needs_volume=*/!on_world); !p.empty()) {
        Error(Subject::kCollider, k, p);
        continue;
      }
      // A half-space on a moving body is an idealisation some models support (MuJoCo's
      // planes are static: its simulator rejects it), not an invalid scene.
      if (arena::IsPlanar(TypeOf(c.shape)) && !on_world) {
        const BodyModel& b = model_.body(c.body);
        if (b.parent != kWorldBody || b.joint.type != JointType::kPlanar) {
          Error(Subject::kCollider, k, "a 2D shape needs a body on a planar joint to the world");
        }
      }
    }
  }

  void CheckActuators() {
    for (int k = 0; k < static_cast<int>(scene_.actuators.size()); ++k) {
      const Actuator& a = scene_.actuators[k];
      if (a.body < 0 || a.body >= model_.num_bodies()) {
        Error(Subject::kActuator, k, "drives a missing body (index " + std::to_string(a.body) + ")");
        continue;
      }
      const JointModel& j = model_.body(a.body).joint;
      if (a.dof < 0 || a.dof >= j.nv()) {
        Error(Subject::kActuator, k,
              fmt::format("drives DOF {} of joint '{}', which has {} DOF", a.dof, j.name, j.nv()));
      }
      if (!std::isfinite(a.gear)) Error(Subject::kActuator, k, fmt::format("gear {} is not finite", a.gear));
      if (!(a.kp >= 0.0) || !std::isfinite(a.kp) || !(a.kd >= 0.0) || !std::isfinite(a.kd)) {
        Error(Subject::kActuator, k, fmt::format("kp {} and kd {} must be finite and >= 0", a.kp, a.kd));
      }
      if (a.type == ActuatorType::kVelocityTarget && a.kp != 0.0) {
        Error(Subject::kActuator, k, fmt::format("a velocity target has no position gain, but kp is {}", a.kp));
      }
      if (std::isnan(a.ctrl_lower) || std::isnan(a.ctrl_upper) || a.ctrl_lower > a.ctrl_upper ||
          a.ctrl_lower == std::numeric_limits<double>::infinity() ||
          a.ctrl_upper == -std::numeric_limits<double>::infinity()) {
        Error(Subject::kActuator, k,
              fmt::format("control range [{}, {}] is empty or not a range", a.ctrl_lower, a.ctrl_upper));
      }
    }
    for (int k = 0; k < static_cast<int>(scene_.design.size()); ++k) {
      const DesignParameter& d = scene_.design[k];
      if (!std::isfinite(d.value)) {
        Error(Subject::kDesign, k, fmt::format("value {} is not finite", d.value));
      } else if (std::isnan(d.lower) || std::isnan(d.upper) || !(d.lower <= d.value && d.value <= d.upper)) {
        Error(Subject::kDesign, k,
              fmt::format("value {} is outside its bounds [{}, {}]", d.value, d.lower, d.upper));
      }
    }
  }

  void CheckScene() {
    if (!model_.gravity().allFinite()) {
      Error(Subject::kScene, -1, "gravity " + Vec3Text(model_.gravity()) + " is not finite");
    }
    if (!(scene_.timestep_hint >= 0.0) || !std::isfinite(scene_.timestep_hint)) {
      Error(Subject::kScene, -1, fmt::format("timestep hint {} must be finite and >= 0", scene_.timestep_hint));
    }
    for (const auto& [a, b] : scene_.excluded_body_pairs) {
      const int n = model_.num_bodies();
      if (a < kWorldBody || a >= n || b < kWorldBody || b >= n) {
        Error(Subject::kScene, -1, fmt::format("excluded pair ({}, {}) names a missing body", a, b));
      }
    }
    const VecX& q = scene_.default_q;
    if (q.size() == 0) return;
    if (q.size() != model_.nq()) {
      Error(Subject::kScene, -1,
            fmt::format("default_q has size {}, expected nq = {}", q.size(), model_.nq()));
      return;
    }
    for (int k = 0; k < model_.num_bodies(); ++k) {
      const BodyModel& b = model_.body(k);
      const auto qj = q.segment(b.idx_q, b.joint.nq());
      if (!qj.allFinite()) {
        Error(Subject::kJoint, k, "default position is not finite");
        continue;
      }
      if (const int o = QuaternionOffset(b.joint.type); o >= 0) {
        const double norm = qj.segment<4>(o).norm();
        if (std::abs(norm - 1.0) > 1e-6) {
          Error(Subject::kJoint, k,
                fmt::format("default orientation is a quaternion of norm {}, not a unit quaternion", norm));
        }
      }
    }
  }

  // A singular M(q0) means some DOF moves nothing: accelerations are undefined. Checked after
  // every rule above has passed (it needs finite inertias and a valid default_q).
  void CheckMassMatrix() {
    if (model_.nv() == 0) return;
    MultibodyData data(model_);
    const VecX q = scene_.default_q.size() == model_.nq() ? scene_.default_q : model_.Neutral();
    Crba(model_, data, q);
    const MatX& M = data.M;
    if (!M.allFinite()) {
      Error(Subject::kScene, -1,
            "the mass matrix at the default configuration is not finite (masses, inertias or "
            "distances so large that their products overflow)");
      return;
    }
    const int n = model_.nv();
    MatX L = MatX::Zero(n, n);  // Cholesky factor, column by column in DOF order
    for (int i = 0; i < n; ++i) {
      double pivot = M(i, i) - L.row(i).head(i).squaredNorm();
      if (!(M(i, i) > 0.0) || !(pivot > kSingularPivot * M(i, i))) {
        ReportSingularDof(i);
        return;
      }
      L(i, i) = std::sqrt(pivot);
      for (int r = i + 1; r < n; ++r) {
        L(r, i) = (M(r, i) - L.row(r).head(i).dot(L.row(i).head(i))) / L(i, i);
      }
    }
  }

  void ReportSingularDof(int dof) {
    int k = 0;
    while (k + 1 < model_.num_bodies() &&
           !(model_.body(k).idx_v <= dof && dof < model_.body(k).idx_v + model_.body(k).joint.nv())) {
      ++k;
    }
    const BodyModel& b = model_.body(k);
    const int local = dof - b.idx_v;
    std::string hint = "give the bodies it moves mass and rotational inertia";
    if (IsRotation(local, b.joint.type)) {
      Eigen::SelfAdjointEigenSolver<Mat3> eig(b.inertia.inertia_com());
      hint = fmt::format("its rotational inertia (principal moments {}) does not resist the "
                         "rotation; a free or ball joint needs a body with rotational inertia, "
                         "not a point mass",
                         Vec3Text(eig.eigenvalues()));
    }
    Error(Subject::kBody, k,
          fmt::format("the mass matrix is singular at the default configuration: the {} of its "
                      "{} joint '{}' moves no mass or inertia; {}",
                      DofName(b.joint, local), ToString(b.joint.type), b.joint.name, hint));
  }

  void Warn() {
    int heaviest = -1, lightest = -1;
    for (int k = 0; k < model_.num_bodies(); ++k) {
      const BodyModel& b = model_.body(k);
      const double m = b.inertia.mass();
      if (m > 0.0) {
        if (heaviest < 0 || m > model_.body(heaviest).inertia.mass()) heaviest = k;
        if (lightest < 0 || m < model_.body(lightest).inertia.mass()) lightest = k;
      }
      if (b.joint.nv() > 0 && m == 0.0 && !IsJointChainLink(model_, k)) {
        Warning(Subject::kBody, k,
                "moves but has no mass of its own: the bodies below it carry all of the inertia "
                "(a link without <inertial>?)");
      }
      Eigen::SelfAdjointEigenSolver<Mat3> eig(b.inertia.inertia_com());
      const Vec3 I = eig.eigenvalues();
      if (I.z() > 0.0 && I.x() + I.y() < I.z()) {
        Warning(Subject::kInertia, k,
                fmt::format("principal moments {} meet the triangle inequality I1 + I2 >= I3 only "
                            "within the relative tolerance {}",
                            Vec3Text(I), kInertiaRelativeTolerance));
      }
      if (b.joint.nv() == 1 && b.joint.lower == b.joint.upper) {
        Warning(Subject::kJoint, k,
                fmt::format("limits [{}, {}] leave no range of motion; a fixed joint says so",
                            b.joint.lower, b.joint.upper));
      }
      if (b.joint.nv() == 1 && scene_.default_q.size() == model_.nq()) {
        const double q = scene_.default_q[b.idx_q];
        if (q < b.joint.lower || q > b.joint.upper) {
          Warning(Subject::kJoint, k,
                  fmt::format("default position {} is outside the limits [{}, {}]", q,
                              b.joint.lower, b.joint.upper));
        }
      }
    }
    if (heaviest >= 0 && model_.body(heaviest).inertia.mass() > kMassRatio * model_.body(lightest).inertia.mass()) {
      const BodyModel& h = model_.body(heaviest);
      const BodyModel& l = model_.body(lightest);
      Warning(Subject::kBody, lightest,
              fmt::format("body masses span a ratio of {:.3g} (heaviest '{}' {} kg, lightest '{}' {} "
                          "kg); above {:g} contact and joint solves become ill-conditioned",
                          h.inertia.mass() / l.inertia.mass(), h.name, h.inertia.mass(), l.name,
                          l.inertia.mass(), kMassRatio));
    }
    for (int k = 0; k < static_cast<int>(scene_.colliders.size()); ++k) {
      const double size = ShapeSize(scene_.colliders[k].shape);
      if (size > 0.0 && (size < kSmallestColliderSize || size > kLargestColliderSize)) {
        Warning(Subject::kCollider, k,
                fmt::format("its size is {:.3g} m, outside [{:g}, {:g}] m: wrong units (a mesh in "
                            "millimetres?)",
                            size, kSmallestColliderSize, kLargestColliderSize));
      }
    }
    for (int k = 0; k < static_cast<int>(scene_.actuators.size()); ++k) {
      const Actuator& a = scene_.actuators[k];
      const bool idle = ControlGain(a) == 0.0;
      if (idle) {
        Warning(Subject::kActuator, k,
                a.type == ActuatorType::kTorque     ? "gear 0: the actuator applies no torque"
                : a.type == ActuatorType::kPdTarget ? "kp = 0: the actuator's target does nothing"
                                                    : "kd = 0: the actuator's velocity target does nothing");
      }
    }
  }

  const Scene& scene_;
  const MultibodyModel& model_;
  std::vector<SceneIssue> issues_;
};

}  // namespace

std::string ValidateInertia(const SpatialInertia& inertia) {
  const double m = inertia.mass();
  if (!(m >= 0.0) || !std::isfinite(m)) return fmt::format("mass {} must be finite and >= 0", m);
  if (!inertia.com().allFinite()) {
    return "centre of mass " + Vec3Text(inertia.com()) + " is not finite";
  }
  const Mat3& I = inertia.inertia_com();
  if (!I.allFinite()) return "rotational inertia is not finite";
  const double scale = I.cwiseAbs().maxCoeff();
  if (scale == 0.0) return "";  // a point mass, or a massless link
  if ((I - I.transpose()).cwiseAbs().maxCoeff() > 1e-9 * scale) {
    return "rotational inertia is not a symmetric matrix";
  }
  const Vec3 moments = Eigen::SelfAdjointEigenSolver<Mat3>(I).eigenvalues();  // ascending
  const double tol = kInertiaRelativeTolerance * moments.z();
  if (moments.x() < -tol) {
    return "principal moments of inertia " + Vec3Text(moments) +
           " include a negative one; a moment of inertia is a sum of m r^2 and cannot be negative";
  }
  if (moments.x() + moments.y() < moments.z() - tol) {
    return fmt::format(
        "principal moments of inertia {} break the triangle inequality I1 + I2 >= I3 ({} < {}): "
        "no distribution of mass has them; check for a mistyped or swapped entry",
        Vec3Text(moments), moments.x() + moments.y(), moments.z());
  }
  if (m == 0.0) {
    return "mass is 0 but the rotational inertia is not (principal moments " + Vec3Text(moments) +
           "); rotational inertia comes from mass";
  }
  return "";
}

std::string ValidateJoint(const JointModel& joint) {
  if (std::string p = PlacementProblem(joint.placement); !p.empty()) return "placement: " + p;
  const bool one_dof = joint.nv() == 1;
  if (one_dof && (!joint.axis.allFinite() || std::abs(joint.axis.norm() - 1.0) > 1e-9)) {
    return "axis " + Vec3Text(joint.axis) + " must be a finite unit vector";
  }
  const bool limited = joint.lower != -kInf || joint.upper != kInf;
  if (std::isnan(joint.lower) || std::isnan(joint.upper) || joint.lower == kInf ||
      joint.upper == -kInf || joint.lower > joint.upper) {
    return fmt::format("limits [{}, {}]: lower must be <= upper (and neither NaN)", joint.lower,
                       joint.upper);
  }
  if (limited && !one_dof) {
    return fmt::format("position limits on a {} joint are not supported", ToString(joint.type));
  }
  if (!(joint.effort_limit > 0.0)) {
    return fmt::format("effort limit {} must be > 0 (infinite: no limit)", joint.effort_limit);
  }
  if (!(joint.velocity_limit > 0.0)) {
    return fmt::format("velocity limit {} must be > 0 (infinite: no limit)", joint.velocity_limit);
  }
  for (const auto& [value, what] : {std::pair{joint.damping, "damping"},
                                    std::pair{joint.stiffness, "stiffness"},
                                    std::pair{joint.armature, "armature"}}) {
    if (!(value >= 0.0) || !std::isfinite(value)) {
      return fmt::format("{} {} must be finite and >= 0", what, value);
    }
  }
  if (!std::isfinite(joint.spring_reference)) {
    return fmt::format("spring reference {} is not finite", joint.spring_reference);
  }
  return "";
}

std::vector<SceneIssue> Scene::Check() const { return SceneChecker(*this).Run(); }

void Scene::Validate() const {
  for (const SceneIssue& issue : Check()) {
    if (issue.severity != SceneIssue::Severity::kError) continue;
    const std::string what = Describe(issue);
    throw InvalidArgument("scene '" + name + "': " + (what.empty() ? "" : what + ": ") + issue.problem);
  }
}

std::string Scene::Describe(const SceneIssue& issue) const {
  const int k = issue.index;
  auto body_name = [&](int b) {
    return b >= 0 && b < model.num_bodies() ? "'" + model.body(b).name + "'" : std::to_string(b);
  };
  switch (issue.subject) {
    case Subject::kScene: return "";
    case Subject::kBody: return "body " + body_name(k);
    case Subject::kInertia: return "inertia of body " + body_name(k);
    case Subject::kJoint:
      return "joint '" + (k >= 0 && k < model.num_bodies() ? model.body(k).joint.name : "") +
             "' of body " + body_name(k);
    case Subject::kCollider:
      return "collider '" + (k >= 0 && k < static_cast<int>(colliders.size()) ? colliders[k].name : "") + "'";
    case Subject::kActuator:
      return "actuator '" + (k >= 0 && k < static_cast<int>(actuators.size()) ? actuators[k].name : "") + "'";
    case Subject::kDesign:
      return "design parameter '" + (k >= 0 && k < static_cast<int>(design.size()) ? design[k].name : "") + "'";
  }
  return "";
}

}  // namespace arena
