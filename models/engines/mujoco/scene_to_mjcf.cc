#include "models/engines/mujoco/scene_to_mjcf.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <map>
#include <set>
#include <variant>

#include <Eigen/Eigenvalues>

#include "core/common/error.h"
#include "core/geometry/mesh.h"

namespace arena {

namespace {

// MuJoCo's mjMAXVAL: a limit this far away is never active (stands for an open side).
constexpr double kOpenLimit = 1e10;

// A massless moving body's stand-in mass (kg) and principal inertia (kg m^2): far below any
// link's (the spider's lightest is 2 kg), far above MuJoCo's mjMINVAL (1e-15).
constexpr double kSpeckMass = 1e-6;
constexpr double kSpeckInertia = 1e-10;

// Planar scenes are extruded along z: a polygon becomes a prism and a disk a cylinder of this
// half depth (m). Their bodies cannot leave the plane or tilt, so the depth only places MuJoCo's
// contact points along z; it is a margin over the grasp's 0.1 m fingertips.
constexpr double kPlanarHalfDepth = 0.5;

// The rotation taking MuJoCo's plane normal (+z) to a half-plane's outward normal (+y): -90
// degrees about x, as (w, x, y, z).
const Quat kZToY(std::sqrt(0.5), -std::sqrt(0.5), 0.0, 0.0);

// Shortest text that reads back as the same double (17 significant digits).
std::string Num(double x) {
  char buffer[32];
  std::snprintf(buffer, sizeof(buffer), "%.17g", x);
  return buffer;
}

std::string Nums(std::initializer_list<double> xs) {
  std::string out;
  for (double x : xs) out += (out.empty() ? "" : " ") + Num(x);
  return out;
}

std::string VecText(const Vec3& v) { return Nums({v.x(), v.y(), v.z()}); }

std::string Escape(const std::string& s) {
  std::string out;
  for (char c : s) {
    switch (c) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      case '\'': out += "&apos;"; break;
      default: out += c;
    }
  }
  return out;
}

// pos="..." quat="..." of a pose, leaving out the identity parts so that the frames of most
// scenes are written (and read back by MuJoCo) exactly.
std::string PoseAttributes(const SE3& X) {
  std::string out;
  if (!X.translation().isZero(0.0)) out += " pos=\"" + VecText(X.translation()) + "\"";
  if (X.rotation() != Mat3::Identity()) {
    const Quat q(X.rotation());
    out += " quat=\"" + Nums({q.w(), q.x(), q.y(), q.z()}) + "\"";
  }
  return out;
}

// pos, quat, mass and diaginertia of an <inertial>, its COM shifted by `anchor`. A non-diagonal
// inertia is diagonalised here (Eigen's symmetric solver, accurate to round-off) rather than
// written as fullinertia: MuJoCo 2.2.2's compiler diagonalises with a Jacobi iteration that stops
// once a rotation falls below 1.4e-6 rad (cos > 1 - 1e-12, mju_eig3), which changed the
// accelerations of a test arm by 1e-10 relative per step.
std::string InertiaAttributes(const SpatialInertia& I, const Vec3& anchor) {
  const Mat3& J = I.inertia_com();
  std::string out = " pos=\"" + VecText(I.com() + anchor) + "\"";
  Vec3 principal = J.diagonal();
  if (J(0, 1) != 0.0 || J(0, 2) != 0.0 || J(1, 2) != 0.0) {
    const Eigen::SelfAdjointEigenSolver<Mat3> eigen(0.5 * (J + J.transpose()));
    Mat3 R = eigen.eigenvectors();  // columns: principal axes in the body frame
    if (R.determinant() < 0.0) R.col(2) *= -1.0;
    principal = eigen.eigenvalues();
    const Quat q(R);
    out += " quat=\"" + Nums({q.w(), q.x(), q.y(), q.z()}) + "\"";
  }
  return out + " mass=\"" + Num(I.mass()) + "\" diaginertia=\"" + VecText(principal) + "\"";
}

// Names unique within one MuJoCo namespace (bodies, joints, geoms, actuators, meshes): our
// name when it is free, else "<kind><index>".
class NameTable {
 public:
  std::string Take(const std::string& preferred, const std::string& kind, int index) {
    std::string name = preferred;
    if (name.empty() || used_.count(name) > 0) name = kind + std::to_string(index);
    while (used_.count(name) > 0) name += "_";
    used_.insert(name);
    return name;
  }

 private:
  std::set<std::string> used_;
};

bool IsOneDof(JointType t) { return t == JointType::kRevolute || t == JointType::kPrismatic; }
bool IsChainJoint(JointType t) { return IsOneDof(t) || t == JointType::kBall; }

std::string Where(const Scene& scene) { return "mujoco: scene '" + scene.name + "': "; }

class Translator {
 public:
  explicit Translator(const Scene& scene) : scene_(scene), model_(scene.model) {}

  MjcfTranslation Run() {
    const int nb = model_.num_bodies();
    children_.assign(nb, {});
    colliders_of_.assign(nb, {});
    static_.assign(nb, false);
    out_.joint_names.assign(nb, "");
    out_.actuator_names.assign(scene_.nu(), "");
    out_.geom_names.assign(scene_.colliders.size(), "");
    std::vector<int> world_colliders;
    for (int b = 0; b < nb; ++b) {
      const BodyModel& body = model_.body(b);
      if (body.parent == kWorldBody) {
        roots_.push_back(b);
      } else {
        children_[body.parent].push_back(b);
      }
      static_[b] = body.joint.type == JointType::kFixed &&
                   (body.parent == kWorldBody || static_[body.parent]);
    }
    for (int c = 0; c < static_cast<int>(scene_.colliders.size()); ++c) {
      const int b = scene_.colliders[c].body;
      (b == kWorldBody ? world_colliders : colliders_of_[b]).push_back(c);
    }
    CheckJoints();
    ChoosePairs();  // first: <size> needs the number of pairs

    std::string xml;
    xml += "<mujoco model=\"" + Escape(scene_.name) + "\">\n";
    xml += "  <compiler angle=\"radian\" coordinate=\"local\" inertiafromgeom=\"false\" "
           "fusestatic=\"false\" autolimits=\"false\"/>\n";
    xml += "  <option gravity=\"" + VecText(model_.gravity()) + "\"/>\n";
    out_.max_contacts = std::clamp(8 * out_.num_pairs, 100, 1000);
    out_.max_constraint_rows = std::clamp(4 * out_.max_contacts + 2 * model_.nv(), 500, 2000);
    xml += "  <size nconmax=\"" + std::to_string(out_.max_contacts) + "\" njmax=\"" +
           std::to_string(out_.max_constraint_rows) + "\"/>\n";
    xml += "  <default>\n    <geom contype=\"0\" conaffinity=\"0\"/>\n  </default>\n";

    body_xml_ += "  <worldbody>\n";
    for (int c : world_colliders) WriteGeom(c, SE3::Identity(), /*is_static=*/true, 2);
    for (int b : roots_) WriteBody(b, Vec3::Zero(), 2);
    body_xml_ += "  </worldbody>\n";

    if (!asset_xml_.empty()) xml += "  <asset>\n" + asset_xml_ + "  </asset>\n";
    xml += body_xml_;
    const std::string pair_xml = PairXml();
    if (!pair_xml.empty()) xml += "  <contact>\n" + pair_xml + "  </contact>\n";
    WriteActuators();
    if (!actuator_xml_.empty()) xml += "  <actuator>\n" + actuator_xml_ + "  </actuator>\n";
    xml += "</mujoco>\n";
    out_.xml = std::move(xml);
    return std::move(out_);
  }

 private:
  void CheckJoints() const {
    for (int b = 0; b < model_.num_bodies(); ++b) {
      const BodyModel& body = model_.body(b);
      const std::string what = "joint '" + body.joint.name + "' of body '" + body.name + "'";
      if (body.joint.type == JointType::kPlanar && body.parent != kWorldBody) {
        throw Unsupported(Where(scene_) + what +
                          " is a planar joint below another body; the mujoco model moves planar "
                          "bodies on the world only");
      }
      if (body.joint.type == JointType::kFree && body.parent != kWorldBody) {
        throw Unsupported(Where(scene_) + what +
                          " is a free joint below another body; MuJoCo allows free joints only "
                          "on children of the world");
      }
    }
  }

  // A massless, collider-free body on a hinge / slide / ball joint whose only child hangs from
  // it by a pure translation: merged into that child (see the header).
  bool Absorbed(int b) const {
    const BodyModel& body = model_.body(b);
    if (!IsChainJoint(body.joint.type) || body.inertia.mass() != 0.0) return false;
    if (!colliders_of_[b].empty() || children_[b].size() != 1) return false;
    const BodyModel& child = model_.body(children_[b][0]);
    return IsChainJoint(child.joint.type) && child.joint.placement.rotation() == Mat3::Identity();
  }

  // Writes the MuJoCo body that starts with our body `first`; `offset` places the parent's
  // frame in the parent's MuJoCo body frame.
  void WriteBody(int first, const Vec3& offset, int depth) {
    const std::string pad(2 * depth, ' ');
    // The chain first .. last merged into this MuJoCo body, and each joint's anchor D_k.
    std::vector<std::pair<int, Vec3>> chain;
    Vec3 anchor = Vec3::Zero();
    int last = first;
    for (;;) {
      chain.emplace_back(last, anchor);
      if (!Absorbed(last)) break;
      last = children_[last][0];
      anchor += model_.body(last).joint.placement.translation();
    }
    const BodyModel& body = model_.body(last);
    const SE3 X_PB = SE3::FromTranslation(offset) * model_.body(first).joint.placement;
    body_xml_ += pad + "<body name=\"" + Escape(bodies_.Take(body.name, "body", last)) + "\"" +
                 PoseAttributes(X_PB) + ">\n";
    for (const auto& [b, D] : chain) WriteJoint(b, D, depth + 1);

    const SpatialInertia& I = body.inertia;
    if (I.mass() > 0.0) {
      body_xml_ += pad + "  <inertial" + InertiaAttributes(I, anchor) + "/>\n";
    } else if (!static_[last]) {
      // MuJoCo refuses a moving body without mass and inertia (a massless link between two
      // hinges that no pure translation merges, like the spider's hip swing): a speck instead.
      body_xml_ += pad + "  <inertial pos=\"" + VecText(anchor) + "\" mass=\"" + Num(kSpeckMass) +
                   "\" diaginertia=\"" + VecText(Vec3::Constant(kSpeckInertia)) + "\"/>\n";
    }
    for (int c : colliders_of_[last]) {
      WriteGeom(c, SE3::FromTranslation(anchor), static_[last], depth + 1);
    }
    for (int child : children_[last]) WriteBody(child, anchor, depth + 1);
    body_xml_ += pad + "</body>\n";
  }

  void WriteJoint(int b, const Vec3& anchor, int depth) {
    const JointModel& j = model_.body(b).joint;
    if (j.type == JointType::kFixed) return;
    const std::string pad(2 * depth, ' ');
    if (j.type == JointType::kPlanar) {
      WritePlanarJoints(b, pad);
      return;
    }
    const std::string name = joints_.Take(j.name, "joint", b);
    out_.joint_names[b] = name;
    std::string line = pad + "<joint name=\"" + Escape(name) + "\"";
    switch (j.type) {
      case JointType::kRevolute: line += " type=\"hinge\""; break;
      case JointType::kPrismatic: line += " type=\"slide\""; break;
      case JointType::kBall: line += " type=\"ball\""; break;
      default: line += " type=\"free\""; break;  // planar is WritePlanarJoints
    }
    if (!anchor.isZero(0.0)) line += " pos=\"" + VecText(anchor) + "\"";
    if (IsOneDof(j.type)) {
      line += " axis=\"" + VecText(j.axis) + "\"";
      // Passive terms and armature act on 1-DOF joints only (joint.h, actuation.h).
      if (j.armature != 0.0) line += " armature=\"" + Num(j.armature) + "\"";
      if (j.damping != 0.0) line += " damping=\"" + Num(j.damping) + "\"";
      if (j.stiffness != 0.0) line += " stiffness=\"" + Num(j.stiffness) + "\"";
      if (j.spring_reference != 0.0) line += " springref=\"" + Num(j.spring_reference) + "\"";
      if (std::isfinite(j.lower) || std::isfinite(j.upper)) {
        const double lo = std::isfinite(j.lower) ? j.lower : -kOpenLimit;
        const double hi = std::isfinite(j.upper) ? j.upper : kOpenLimit;
        line += " limited=\"true\" range=\"" + Nums({lo, hi}) + "\"";
      } else {
        line += " limited=\"false\"";
      }
    }
    body_xml_ += line + "/>\n";
  }

  // A planar joint (x, y, theta in J's xy-plane) as MuJoCo's slide x, slide y, hinge z, in this
  // order: MuJoCo applies a body's joints one after another, so the slides move along J's axes
  // and the hinge turns about the moved origin, and qpos is our (x, y, theta). qvel is (x', y',
  // theta'), world rates where ours are body-frame (the simulator converts). joint_names[b]
  // names the x slide, the first of the three, which are consecutive in qpos and qvel.
  void WritePlanarJoints(int b, const std::string& pad) {
    const JointModel& j = model_.body(b).joint;
    const std::string base = j.name.empty() ? "joint" + std::to_string(b) : j.name;
    std::array<std::string, 3> names;  // by our DOF index: theta, x, y
    const std::array<std::pair<int, const char*>, 3> order = {{{1, "x"}, {2, "y"}, {0, "theta"}}};
    for (const auto& [dof, suffix] : order) {
      names[dof] = joints_.Take(base + "_" + suffix, "joint", b);
      const bool hinge = dof == 0;
      const Vec3 axis = hinge ? Vec3::UnitZ() : dof == 1 ? Vec3::UnitX() : Vec3::UnitY();
      body_xml_ += pad + "<joint name=\"" + Escape(names[dof]) + "\" type=\"" + (hinge ? "hinge" : "slide") +
                   "\" axis=\"" + VecText(axis) + "\" limited=\"false\"/>\n";
    }
    out_.joint_names[b] = names[1];
    planar_joint_names_[b] = names;
  }

  void WriteGeom(int c, const SE3& X_BO, bool is_static, int depth) {
    const Collider& collider = scene_.colliders[c];
    const std::string pad(2 * depth, ' ');
    const std::string name = geoms_.Take(collider.name, "geom", c);
    out_.geom_names[c] = name;
    const std::string what = "collider '" + collider.name + "'";
    std::string shape;
    SE3 placement = collider.placement;  // of MuJoCo's geom frame in ours
    const Shape& s = collider.shape;
    if (const auto* sphere = std::get_if<Sphere>(&s)) {
      shape = "type=\"sphere\" size=\"" + Num(sphere->radius) + "\"";
    } else if (const auto* box = std::get_if<Box>(&s)) {
      shape = "type=\"box\" size=\"" + VecText(box->half_extents) + "\"";
    } else if (const auto* capsule = std::get_if<Capsule>(&s)) {
      shape = "type=\"capsule\" size=\"" + Nums({capsule->radius, capsule->half_length}) + "\"";
    } else if (const auto* cylinder = std::get_if<Cylinder>(&s)) {
      shape = "type=\"cylinder\" size=\"" + Nums({cylinder->radius, cylinder->half_length}) + "\"";
    } else if (const auto* ellipsoid = std::get_if<Ellipsoid>(&s)) {
      shape = "type=\"ellipsoid\" size=\"" + VecText(ellipsoid->radii) + "\"";
    } else if (std::holds_alternative<HalfSpace>(s)) {
      if (!is_static) {
        throw Unsupported(Where(scene_) + "the half-space " + what +
                          " is on a moving body; MuJoCo allows planes on static bodies only");
      }
      // size(3) is the rendering grid spacing, which MuJoCo requires positive; 0 0: infinite.
      shape = "type=\"plane\" size=\"0 0 1\"";
    } else if (const auto* hull = std::get_if<ConvexHull>(&s)) {
      if (hull->radius > 0.0) {
        throw Unsupported(Where(scene_) + "the padded convex hull " + what +
                          " is not supported: MuJoCo has no rounded (hull (+) ball) geom");
      }
      shape = "type=\"mesh\" mesh=\"" + WriteMesh(c, hull->data->vertices) + "\"";
    } else if (const auto* mesh = std::get_if<TriangleMesh>(&s)) {
      if (!mesh->data->hull) {
        throw Unsupported(Where(scene_) + "the mesh " + what +
                          " is flat; MuJoCo collides with a mesh's convex hull, which needs volume");
      }
      shape = "type=\"mesh\" mesh=\"" + WriteMesh(c, mesh->data->hull->vertices) + "\"";
    } else if (const auto* polygon = std::get_if<Polygon2>(&s)) {
      if (polygon->radius > 0.0) {
        throw Unsupported(Where(scene_) + "the padded polygon " + what +
                          " is not supported: MuJoCo has no rounded prism geom");
      }
      shape = "type=\"mesh\" mesh=\"" + WriteMesh(c, PrismVertices(polygon->vertices)) + "\"";
    } else if (const auto* disk = std::get_if<Disk2>(&s)) {
      shape = "type=\"cylinder\" size=\"" + Nums({disk->radius, kPlanarHalfDepth}) + "\"";
    } else if (std::holds_alternative<HalfPlane2>(s)) {
      if (!is_static) {
        throw Unsupported(Where(scene_) + "the half-plane " + what +
                          " is on a moving body; MuJoCo allows planes on static bodies only");
      }
      shape = "type=\"plane\" size=\"0 0 1\"";
      placement = placement * SE3(Mat3(kZToY), Vec3::Zero());
    } else if (std::holds_alternative<Cone>(s)) {
      throw Unsupported(Where(scene_) + "shape 'cone' of " + what +
                        " is not supported: MuJoCo 2.2.2 has no cone geom");
    } else {
      throw Unsupported(Where(scene_) + "shape '" + std::string(ToString(TypeOf(s))) + "' of " +
                        what + " is not supported: MuJoCo has no extruded stadium geom");
    }
    body_xml_ += pad + "<geom name=\"" + Escape(name) + "\" " + shape + PoseAttributes(X_BO * placement) + "/>\n";
  }

  // The prism of a planar polygon: its vertices at z = -h and z = +h.
  static Eigen::Matrix<double, Eigen::Dynamic, 3> PrismVertices(const Eigen::Matrix<double, Eigen::Dynamic, 2>& polygon) {
    const Eigen::Index n = polygon.rows();
    Eigen::Matrix<double, Eigen::Dynamic, 3> out(2 * n, 3);
    for (Eigen::Index i = 0; i < n; ++i) {
      out.row(i) << polygon(i, 0), polygon(i, 1), -kPlanarHalfDepth;
      out.row(n + i) << polygon(i, 0), polygon(i, 1), kPlanarHalfDepth;
    }
    return out;
  }

  // Writes the points as a mesh asset without faces: MuJoCo takes their convex hull (qhull),
  // which is also what it collides with.
  template <class Points>
  std::string WriteMesh(int c, const Points& vertices) {
    const std::string name = meshes_.Take("", "mesh", c);
    std::string text;
    for (int i = 0; i < vertices.rows(); ++i) {
      text += (i == 0 ? "" : " ") + VecText(vertices.row(i).transpose());
    }
    asset_xml_ += "    <mesh name=\"" + name + "\" vertex=\"" + text + "\"/>\n";
    return name;
  }

  void ChoosePairs() {
    for (const auto& [a, b] : scene_.CollisionPairs()) {
      const int ba = scene_.colliders[a].body, bb = scene_.colliders[b].body;
      const bool static_a = ba == kWorldBody || static_[ba];
      const bool static_b = bb == kWorldBody || static_[bb];
      if (static_a && static_b) continue;  // no DOF can feel the contact
      pairs_.emplace_back(a, b);
    }
    out_.num_pairs = static_cast<int>(pairs_.size());
  }

  // Called after the bodies, when every collider has its geom name.
  std::string PairXml() const {
    std::string xml;
    for (const auto& [a, b] : pairs_) {
      const double mu = std::min(scene_.colliders[a].friction, scene_.colliders[b].friction);
      xml += "    <pair geom1=\"" + Escape(out_.geom_names[a]) + "\" geom2=\"" +
             Escape(out_.geom_names[b]) + "\"";
      if (mu > 0.0) {
        // Sliding friction mu in both tangent directions; torsion and rolling are unused at
        // condim 3 (MuJoCo's defaults written for completeness).
        xml += " condim=\"3\" friction=\"" + Nums({mu, mu, 0.005, 0.0001, 0.0001}) + "\"/>\n";
      } else {
        xml += " condim=\"1\"/>\n";
      }
    }
    return xml;
  }

  void WriteActuators() {
    for (int i = 0; i < scene_.nu(); ++i) {
      const Actuator& a = scene_.actuators[i];
      const BodyModel& body = model_.body(a.body);
      const bool planar = body.joint.type == JointType::kPlanar;
      if (planar && a.type == ActuatorType::kTorque && a.dof != 0) {
        throw Unsupported(Where(scene_) + "actuator '" + a.name + "' pushes the planar body '" + body.name +
                          "' along its own axis; the mujoco model's joint transmissions act along the plane's axes");
      }
      if (!IsOneDof(body.joint.type) && !planar) {
        throw Unsupported(Where(scene_) + "actuator '" + a.name + "' drives the " +
                          std::string(ToString(body.joint.type)) + " joint of body '" + body.name +
                          "'; the mujoco model maps actuators to revolute and prismatic joints only");
      }
      const std::string name = actuators_.Take(a.name, "actuator", i);
      out_.actuator_names[i] = name;
      // A planar DOF's target is the world coordinate theta, x or y (actuation.h): its MuJoCo joint.
      const std::string& joint = planar ? planar_joint_names_.at(a.body)[a.dof] : out_.joint_names[a.body];
      const std::string target = " name=\"" + Escape(name) + "\" joint=\"" + Escape(joint) + "\"";
      // Control limits are applied by the simulator (std::clamp, as ActuatorForces does), so
      // MuJoCo's ctrllimited stays off and one-sided ranges need no stand-in value.
      if (a.type == ActuatorType::kTorque) {
        // tau = gear * u.
        actuator_xml_ += "    <motor" + target + " gear=\"" + Num(a.gear) + "\"/>\n";
      } else {
        // tau = ControlGain u - kp q - kd qdot (kp the position gain, 0 for a velocity target):
        // gain on the control, affine bias -kp q - kd qdot on
        // the joint transmission (length q, velocity qdot at gear 1). MuJoCo 2.2.2's
        // <position> has no kv, and this form lets the implicit integrator see the kd term.
        actuator_xml_ += "    <general" + target + " gaintype=\"fixed\" gainprm=\"" + Num(ControlGain(a)) +
                         "\" biastype=\"affine\" biasprm=\"" + Nums({0.0, -PositionGain(a), -VelocityGain(a)}) +
                         "\"/>\n";
      }
    }
  }

  const Scene& scene_;
  const MultibodyModel& model_;
  std::vector<std::vector<int>> children_;
  std::vector<std::vector<int>> colliders_of_;
  std::vector<bool> static_;  // welded to the world through fixed joints
  std::vector<int> roots_;
  std::vector<std::pair<int, int>> pairs_;
  std::map<int, std::array<std::string, 3>> planar_joint_names_;  // per planar body, by DOF
  NameTable bodies_, joints_, geoms_, actuators_, meshes_;
  std::string asset_xml_, body_xml_, actuator_xml_;
  MjcfTranslation out_;
};

}  // namespace

MjcfTranslation SceneToMjcf(const Scene& scene) { return Translator(scene).Run(); }

}  // namespace arena
