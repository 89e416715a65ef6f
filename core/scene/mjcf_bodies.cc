// The MJCF body tree: <worldbody>, <frame>, <body> with its <joint>s and <inertial>, <geom>s as
// colliders, and the elements that refer to bodies and joints by name, <actuator> and
// <contact>. The joint chain that stands for a multi-joint body is explained in mjcf_loader.cc.
#include <fmt/format.h>

#include <cmath>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <variant>
#include <vector>

#include "core/common/error.h"
#include "core/math/so3.h"
#include "core/scene/mjcf_internal.h"

namespace arena::mjcf_internal {

namespace {

// contype / conaffinity: a 32-bit mask written as a non-negative integer (default 1).
int BitMask(const Attrs& a, const char* name) {
  const double x = a.Num(name, 1.0);
  if (!(x >= 0.0 && x <= 2147483647.0) || x != std::floor(x)) {
    throw ParseError(a.path(), a.where() + " / " + name,
                     fmt::format("{} {} must be an integer in [0, 2^31)", name, x));
  }
  return static_cast<int>(x);
}

}  // namespace

void BodyTreeBuilder::ParseWorldBody(const XMLElement* e) {
  CheckAttributes(path_, e);
  BodyInfo world;
  ParseBodyChildren(e, world, SE3::Identity(), /*is_world=*/true);
}

// Children of <worldbody>, <body> or <frame>. X_BF places a <frame> in the enclosing body
// (identity for the body itself).
void BodyTreeBuilder::ParseBodyChildren(const XMLElement* e, const BodyInfo& owner,
                                        const SE3& X_BF, bool is_world) {
  for (const XMLElement* c = e->FirstChildElement(); c; c = c->NextSiblingElement()) {
    const std::string_view name = c->Name();
    if (name == "geom") {
      ParseGeom(c, owner, X_BF, is_world);
    } else if (name == "body") {
      ParseBody(c, owner, X_BF, is_world);
    } else if (name == "frame") {
      if (compiler_.global) {
        throw ParseError(path_, Where(c), "<frame> needs coordinate=\"local\"");
      }
      CheckAttributes(path_, c);
      BodyInfo framed = owner;
      if (const char* cc = c->Attribute("childclass")) framed.childclass = cc;
      const SE3 X_FG = ParsePose(path_, Attrs(path_, c, nullptr), compiler_);
      ParseBodyChildren(c, framed, X_BF * X_FG, is_world);
    } else if (name == "site" || name == "camera" || name == "light") {
      continue;
    } else if ((name == "joint" || name == "freejoint" || name == "inertial") && !is_world &&
               e->Name() == std::string_view("body")) {
      continue;  // handled by ParseBody
    } else {
      Unsupported(path_, c);
    }
  }
}

void BodyTreeBuilder::ParseBody(const XMLElement* e, const BodyInfo& parent, const SE3& X_PF,
                                bool parent_is_world) {
  CheckAttributes(path_, e);
  const Attrs a(path_, e, nullptr);
  const std::string name = a.Str("name", "body" + std::to_string(num_mjcf_bodies_));
  ++num_mjcf_bodies_;
  if (body_index_.count(name) || name == "world") {
    throw ParseError(path_, a.where() + " / name", "body name '" + name + "' is repeated");
  }
  if (a.Str("mocap", "false") == "true") {
    throw ParseError(path_, a.where() + " / mocap", "mocap bodies are not supported");
  }
  if (a.Num("gravcomp", 0.0) != 0.0) {
    throw ParseError(path_, a.where() + " / gravcomp", "gravity compensation is not supported");
  }
  BodyInfo info;
  info.childclass = a.Str("childclass", parent.childclass);
  if (!defaults_.Has(info.childclass)) {
    throw ParseError(path_, a.where() + " / childclass",
                     "unknown default class '" + info.childclass + "'");
  }
  // Pose of the MJCF body B0 in our parent body frame P'.
  // Global coordinates: the pose is X_WB0 and X_PF is the parent's X_PW.
  const SE3 pose = ParsePose(path_, a, compiler_);
  const SE3 X_PpB0 = parent.X_BpB * X_PF * pose;
  const SE3 X_B0W = compiler_.global ? pose.Inverse() : SE3::Identity();

  std::vector<JointSpec> joints;
  std::optional<SpatialInertia> inertial;
  std::string inertial_where;
  for (const XMLElement* c = e->FirstChildElement(); c; c = c->NextSiblingElement()) {
    const std::string_view cname = c->Name();
    if (cname == "joint" || cname == "freejoint") {
      joints.push_back(
          ParseJoint(c, info.childclass, name, static_cast<int>(joints.size()), X_B0W));
    } else if (cname == "inertial") {
      if (inertial) throw ParseError(path_, Where(c), "a body has at most one <inertial>");
      inertial = ParseInertial(path_, c, compiler_, X_B0W);
      inertial_where = Where(c);
    }
  }

  // Build the joint chain (see the file comment of mjcf_loader.cc).
  SE3 X_BpB = SE3::Identity();
  int attach = parent.index;
  if (joints.empty()) {
    PendingBody b;
    b.name = name;
    b.parent = attach;
    b.joint.type = JointType::kFixed;
    b.joint.name = name + "_weld";
    b.joint.placement = X_PpB0;
    b.where = a.where();
    b.joint_where = a.where();
    b.inertia_where = a.where();
    attach = AddPending(std::move(b));
  } else {
    for (size_t k = 0; k < joints.size(); ++k) {
      JointSpec& j = joints[k];
      const bool last = k + 1 == joints.size();
      PendingBody b;
      b.name = last ? name : name + "/" + j.model.name;
      b.parent = attach;
      b.real = last;
      b.where = a.where();
      b.joint_where = Where(j.element);
      b.inertia_where = a.where();
      if (j.model.type == JointType::kFree) {
        if (joints.size() != 1 || !parent_is_world) {
          throw ParseError(path_, Where(j.element),
                           "a free joint must be the only joint of a child of <worldbody>");
        }
        // q is the body pose in the world (MuJoCo's qpos); the anchor pos plays no role.
        b.joint = j.model;
        b.joint.placement = SE3::Identity();
        const Quat quat(X_PpB0.rotation());
        b.q0.resize(7);
        b.q0 << X_PpB0.translation(), quat.w(), quat.x(), quat.y(), quat.z();
        X_BpB = SE3::Identity();
        attach = AddPending(std::move(b));
        break;
      }
      SE3 G = SE3::Identity();  // G(-ref)
      if (j.model.type == JointType::kRevolute) {
        G = SE3::FromRotation(Eigen::AngleAxisd(-j.ref, j.model.axis).toRotationMatrix());
      } else if (j.model.type == JointType::kPrismatic) {
        G = SE3::FromTranslation(-j.ref * j.model.axis);
      }
      const SE3 before = k == 0 ? X_PpB0 : SE3::FromTranslation(-joints[k - 1].pos);
      b.joint = j.model;
      b.joint.placement = before * SE3::FromTranslation(j.pos) * G;
      b.q0 = VecX::Zero(j.model.nq());
      if (j.model.type == JointType::kBall) b.q0[0] = 1.0;
      if (j.model.nq() == 1) b.q0[0] = j.ref;
      attach = AddPending(std::move(b));
      if (last) X_BpB = SE3::FromTranslation(-j.pos);
    }
    // MuJoCo never lets a body touch its parent; the chain hides that parent from
    // Scene::CanCollide, so exclude the pair explicitly.
    if (joints.size() > 1 && parent.index != kWorldBody) {
      scene_->excluded_body_pairs.emplace_back(parent.index, attach);
    }
  }
  info.index = attach;
  info.X_BpB = X_BpB;
  body_index_[name] = attach;
  pending_[attach].inertial = inertial;
  pending_[attach].X_BpB = X_BpB;
  if (inertial) pending_[attach].inertia_where = inertial_where;

  ParseBodyChildren(e, info, X_B0W, /*is_world=*/false);
}

int BodyTreeBuilder::AddPending(PendingBody b) {
  pending_.push_back(std::move(b));
  return static_cast<int>(pending_.size()) - 1;
}

// X_BW maps the file's coordinates into the MJCF body frame (identity for local coordinates).
BodyTreeBuilder::JointSpec BodyTreeBuilder::ParseJoint(const XMLElement* e,
                                                       const std::string& childclass,
                                                       const std::string& body_name, int index,
                                                       const SE3& X_BW) {
  JointSpec spec;
  spec.element = e;
  JointModel& jm = spec.model;
  if (std::string_view(e->Name()) == "freejoint") {
    CheckAttributes(path_, e);
    jm.type = JointType::kFree;
    jm.name = e->Attribute("name") ? e->Attribute("name") : body_name + "_free";
    return spec;
  }
  CheckAttributes(path_, e);
  const Attrs a = defaults_.AttrsFor(e, childclass, "joint");
  jm.name = a.Str("name", body_name + "_joint" + std::to_string(index));
  const std::string type = a.Str("type", "hinge");
  if (type == "hinge") {
    jm.type = JointType::kRevolute;
  } else if (type == "slide") {
    jm.type = JointType::kPrismatic;
  } else if (type == "ball") {
    jm.type = JointType::kBall;
  } else if (type == "free") {
    jm.type = JointType::kFree;
  } else {
    throw ParseError(path_, a.where() + " / type",
                     "'" + type + "' is not one of hinge, slide, ball, free");
  }
  const bool angular = jm.type == JointType::kRevolute;
  const double unit = angular ? compiler_.angle_scale : 1.0;
  spec.pos = X_BW.Act(a.Vec("pos", Vec3::Zero()));
  if (jm.nv() == 1) {
    const Vec3 axis = a.Vec("axis", Vec3::UnitZ());
    if (!(axis.norm() > 1e-12)) throw ParseError(path_, a.where() + " / axis", "zero axis");
    jm.axis = X_BW.rotation() * axis.normalized();
    spec.ref = a.Num("ref", 0.0) * unit;
    jm.spring_reference = a.Num("springref", 0.0) * unit;
  }
  jm.damping = a.Num("damping", 0.0);
  jm.stiffness = a.Num("stiffness", 0.0);
  jm.armature = a.Num("armature", 0.0);
  for (const auto& [value, what] : {std::pair{jm.damping, "damping"},
                                    std::pair{jm.stiffness, "stiffness"},
                                    std::pair{jm.armature, "armature"}}) {
    if (value < 0.0) throw ParseError(path_, a.where() + " / " + what, "must be >= 0");
    if (value != 0.0 && jm.nv() != 1) {
      throw ParseError(path_, a.where() + " / " + what,
                       std::string(what) + " on a " + type + " joint is not supported");
    }
  }
  if (a.Num("frictionloss", 0.0) != 0.0) {
    throw ParseError(path_, a.where() + " / frictionloss",
                     "joint dry friction (frictionloss) is not supported");
  }
  std::optional<bool> limited = a.Tristate("limited", std::nullopt);
  if (!limited) limited = compiler_.autolimits && a.Has("range");
  if (*limited) {
    if (jm.nv() != 1) {
      throw ParseError(path_, a.where() + " / range",
                       "limits on a " + type + " joint are not supported");
    }
    if (!a.Has("range")) {
      throw ParseError(path_, a.where() + " / range", "a limited joint needs a range");
    }
    const auto r = a.NumsN("range", 2);
    jm.lower = r[0] * unit;
    jm.upper = r[1] * unit;
    if (jm.lower > jm.upper) {
      throw ParseError(path_, a.where() + " / range", "lower limit exceeds upper limit");
    }
  }
  return spec;
}

void BodyTreeBuilder::ParseGeom(const XMLElement* e, const BodyInfo& owner, const SE3& X_BF,
                                bool is_world) {
  const int index = geom_count_[owner.index]++;
  CheckAttributes(path_, e);
  const Attrs a = defaults_.AttrsFor(e, owner.childclass, "geom");
  const GeomSolid solid = ParseGeomSolid(path_, a, compiler_);
  const SE3 X_BpG = owner.X_BpB * X_BF * solid.X_BG;

  if (std::holds_alternative<HalfSpace>(solid.shape) && !is_world) {
    throw ParseError(path_, a.where() + " / type", "planes are only supported in <worldbody>");
  }
  if (!is_world && solid.unit_inertia) {
    PendingBody& body = pending_[owner.index];
    body.geom_inertia = body.geom_inertia + GeomInertia(path_, a, solid).Transformed(X_BpG);
  }

  PendingCollider pc;
  Collider& c = pc.collider;
  c.name = a.Str("name", (owner.index == kWorldBody ? std::string("world")
                                                    : pending_[owner.index].name) +
                             "_geom" + std::to_string(index));
  c.body = owner.index;
  c.placement = X_BpG;
  c.shape = solid.shape;
  const std::vector<double> friction = a.NumsN("friction", 1, /*at_least=*/true);
  c.friction = friction.empty() ? 1.0 : friction[0];
  if (c.friction < 0.0) throw ParseError(path_, a.where() + " / friction", "must be >= 0");
  pc.contype = BitMask(a, "contype");
  pc.conaffinity = BitMask(a, "conaffinity");
  pc.where = a.where();
  if (pc.contype == 0 && pc.conaffinity == 0) return;  // visual geom: mass only
  colliders_.push_back(std::move(pc));
}

void BodyTreeBuilder::ParseActuators(const XMLElement* e) {
  CheckAttributes(path_, e);
  for (const XMLElement* c = e->FirstChildElement(); c; c = c->NextSiblingElement()) {
    const std::string_view kind = c->Name();
    if (kind != "motor" && kind != "position" && kind != "velocity") Unsupported(path_, c);
    CheckAttributes(path_, c);
    const Attrs a = defaults_.AttrsFor(c, "main", "actuator");
    Actuator act;
    act.name = a.Str("name", "actuator" + std::to_string(scene_->actuators.size()));
    if (!a.Has("joint")) {
      throw ParseError(path_, a.where(), "only joint transmissions are supported (no joint=)");
    }
    const std::string joint = a.Str("joint");
    int body = -1;
    for (int i = 0; i < static_cast<int>(pending_.size()); ++i) {
      if (pending_[i].joint.name == joint) body = i;
    }
    if (body < 0) {
      throw ParseError(path_, a.where() + " / joint", "no joint named '" + joint + "'");
    }
    if (pending_[body].joint.nv() != 1) {
      throw ParseError(path_, a.where() + " / joint",
                       "joint '" + joint + "' is not a hinge or slide joint");
    }
    act.body = body;
    act.dof = 0;
    actuator_where_.push_back(a.where());
    const std::vector<double> gear = a.NumsN("gear", 1, /*at_least=*/true);
    const double g = gear.empty() ? 1.0 : gear[0];
    std::optional<bool> ctrl_limited = a.Tristate("ctrllimited", std::nullopt);
    if (!ctrl_limited) ctrl_limited = compiler_.autolimits && a.Has("ctrlrange");
    if (*ctrl_limited) {
      if (!a.Has("ctrlrange")) {
        throw ParseError(path_, a.where() + " / ctrlrange", "ctrllimited needs a ctrlrange");
      }
      const auto r = a.NumsN("ctrlrange", 2);
      if (r[0] > r[1]) {
        throw ParseError(path_, a.where() + " / ctrlrange", "lower bound exceeds upper bound");
      }
      act.ctrl_lower = r[0];
      act.ctrl_upper = r[1];
    }
    std::optional<bool> force_limited = a.Tristate("forcelimited", std::nullopt);
    if (!force_limited) force_limited = compiler_.autolimits && a.Has("forcerange");
    if (*force_limited) {
      throw ParseError(path_, a.where() + " / forcerange",
                       "actuator force limits are not supported");
    }
    if (kind == "motor") {
      act.type = ActuatorType::kTorque;
      act.gear = g;
    } else if (kind == "velocity") {
      // tau = kv (u - qdot): MuJoCo's velocity servo (kv defaults to 1 there too).
      act.type = ActuatorType::kVelocityTarget;
      if (g != 1.0) {
        throw ParseError(path_, a.where() + " / gear", "velocity actuators with gear != 1 are not supported");
      }
      act.kd = a.Num("kv", 1.0);
      if (!(act.kd >= 0.0)) throw ParseError(path_, a.where(), "kv must be >= 0");
    } else {
      act.type = ActuatorType::kPdTarget;
      if (g != 1.0) {
        throw ParseError(path_, a.where() + " / gear",
                         "position actuators with gear != 1 are not supported");
      }
      act.kp = a.Num("kp", 1.0);
      act.kd = a.Num("kv", 0.0);
      if (act.kp < 0.0 || act.kd < 0.0) {
        throw ParseError(path_, a.where(), "kp and kv must be >= 0");
      }
    }
    scene_->actuators.push_back(std::move(act));
  }
}

void BodyTreeBuilder::ParseContact(const XMLElement* e) {
  CheckAttributes(path_, e);
  for (const XMLElement* c = e->FirstChildElement(); c; c = c->NextSiblingElement()) {
    if (std::string_view(c->Name()) != "exclude") Unsupported(path_, c);
    CheckAttributes(path_, c);
    const Attrs a(path_, c, nullptr);
    int ids[2] = {0, 0};
    for (int k = 0; k < 2; ++k) {
      const char* attr = k == 0 ? "body1" : "body2";
      const std::string name = a.Str(attr);
      if (name == "world") {
        ids[k] = kWorldBody;
        continue;
      }
      const auto it = body_index_.find(name);
      if (it == body_index_.end()) {
        throw ParseError(path_, a.where() + " / " + attr, "no body named '" + name + "'");
      }
      ids[k] = it->second;
    }
    scene_->excluded_body_pairs.emplace_back(ids[0], ids[1]);
  }
}

}  // namespace arena::mjcf_internal
