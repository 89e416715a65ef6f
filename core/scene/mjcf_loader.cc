// MJCF (MuJoCo XML) subset -> Scene, through tinyxml2; .xml.gz files are read through zlib.
//
// Frames. MuJoCo moves a body by its joints in order, each about its own anchor `pos` in the
// body frame B: X_PB(q) = X_PB0 * prod_k T(p_k) G_k(q_k - ref_k) T(-p_k). Our joints move the
// child frame with the joint frame, so a body with joints j_1..j_n becomes a chain of n bodies
// (n - 1 massless intermediates named "<body>/<joint>") with placements
//   X_PJ1 = X_PB0 T(p_1) G_1(-ref_1),   X_PJk = T(-p_{k-1}) T(p_k) G_k(-ref_k),
// and the last (real) body's frame B' = B T(p_n): everything in B (inertia, geoms, children) is
// re-expressed with X_B'B = T(-p_n). Joint coordinates are MuJoCo's qpos (limits, springref and
// ref keep their meaning); default_q holds ref (MuJoCo's qpos0). With the legacy
// coordinate="global" (hopper, walker2d), body, geom, joint and inertial poses are in the world
// and are first brought into the MJCF body frame.
//
// Contact parameters. A geom's friction is the first component of `friction`; condim, solref,
// solimp, margin and the like configure MuJoCo's own contact model and are ignored (a pair's
// friction follows Scene's rule, the smaller of the two, where MuJoCo takes the larger).
//
// Collision filter. MuJoCo pairs geoms when (contype_a & conaffinity_b) || (contype_b &
// conaffinity_a); our AND-of-masks filter reproduces this exactly by giving every distinct
// (contype, conaffinity) combination its own group bit (at most 32 combinations).
#include <tinyxml2.h>
#include <zlib.h>

#include <Eigen/Eigenvalues>

#include <algorithm>
#include <array>
#include <cctype>
#include <cmath>
#include <cstdlib>
#include <map>
#include <numbers>
#include <optional>
#include <set>
#include <string_view>
#include <vector>

#include "core/common/error.h"
#include "core/math/so3.h"
#include "core/scene/loader.h"

namespace arena {

namespace {

using tinyxml2::XMLElement;
using AttrMap = std::map<std::string, std::string>;

std::string ReadMaybeGzipped(const std::string& path) {
  gzFile file = gzopen(path.c_str(), "rb");  // reads plain files unchanged
  if (file == nullptr) throw ParseError(path, "", "cannot open file");
  std::string text;
  std::array<char, 1 << 16> buffer;
  for (;;) {
    const int n = gzread(file, buffer.data(), static_cast<unsigned>(buffer.size()));
    if (n < 0) {
      int code = 0;
      const std::string message = gzerror(file, &code);
      gzclose(file);
      throw ParseError(path, "", "cannot read (zlib: " + message + ")");
    }
    if (n == 0) break;
    text.append(buffer.data(), static_cast<size_t>(n));
  }
  gzclose(file);
  return text;
}

// Attributes each supported element may carry: `used` are read, `ignored` do not change the
// rigid-body physics we model (rendering, solver settings of MuJoCo's own contact model).
struct AttributeTable {
  std::set<std::string_view> used;
  std::set<std::string_view> ignored;
};

const std::map<std::string_view, AttributeTable>& AttributeTables() {
  static const std::map<std::string_view, AttributeTable> tables = {
      {"mujoco", {{"model"}, {}}},
      {"worldbody", {{}, {}}},
      {"actuator", {{}, {}}},
      {"contact", {{}, {}}},
      {"compiler",
       {{"angle", "coordinate", "inertiafromgeom", "settotalmass", "eulerseq", "boundmass",
         "boundinertia", "autolimits"},
        {"meshdir", "texturedir", "assetdir", "discardvisual", "strippath", "convexhull",
         "usethread", "fitaabb", "exactmeshinertia", "fusestatic", "alignfree",
         "inertiagrouprange", "saveinertial"}}},
      {"option",
       {{"gravity", "timestep", "density", "viscosity", "wind"},
        {"integrator", "iterations", "tolerance", "ls_iterations", "ls_tolerance",
         "noslip_iterations", "noslip_tolerance", "mpr_iterations", "mpr_tolerance",
         "ccd_iterations", "ccd_tolerance", "sdf_iterations", "sdf_initpoints", "solver", "cone",
         "jacobian", "impratio", "o_margin", "o_solref", "o_solimp", "o_friction", "collision",
         "apirate", "magnetic", "actuatorgroupdisable"}}},
      {"flag", {{"gravity", "contact", "constraint", "limit", "passive", "actuation"}, {}}},
      {"default", {{"class"}, {}}},
      {"body",
       {{"name", "childclass", "pos", "quat", "axisangle", "euler", "xyaxes", "zaxis", "mocap",
         "gravcomp"},
        {"user"}}},
      {"frame", {{"name", "childclass", "pos", "quat", "axisangle", "euler", "xyaxes", "zaxis"}, {}}},
      {"inertial",
       {{"pos", "quat", "axisangle", "euler", "xyaxes", "zaxis", "mass", "diaginertia",
         "fullinertia"},
        {}}},
      {"joint",
       {{"name", "class", "type", "pos", "axis", "range", "limited", "damping", "stiffness",
         "armature", "ref", "springref", "frictionloss"},
        {"margin", "solreflimit", "solimplimit", "solreffriction", "solimpfriction", "user",
         "group"}}},
      {"freejoint", {{"name"}, {"group"}}},
      {"geom",
       {{"name", "class", "type", "size", "pos", "quat", "axisangle", "euler", "xyaxes", "zaxis",
         "fromto", "friction", "mass", "density", "contype", "conaffinity"},
        {"condim", "mesh", "hfield", "rgba", "material", "group", "margin", "gap", "solref", "solimp", "solmix", "priority",
         "user", "fluidshape", "fluidcoef"}}},
      {"motor",
       {{"name", "class", "joint", "gear", "ctrlrange", "ctrllimited", "forcerange",
         "forcelimited"},
        {"group", "user"}}},
      {"position",
       {{"name", "class", "joint", "gear", "ctrlrange", "ctrllimited", "forcerange",
         "forcelimited", "kp", "kv"},
        {"group", "user"}}},
      {"exclude", {{"body1", "body2"}, {"name"}}},
  };
  return tables;
}

// Elements skipped entirely (no rigid-body physics).
bool IsIgnoredElement(std::string_view name) {
  static const std::set<std::string_view> ignored = {
      "size", "visual", "statistic", "asset", "sensor", "keyframe", "custom", "light",
      "camera", "site", "texture", "material"};
  return ignored.count(name) > 0;
}

// Default-class children we store, and those that are harmless to skip (they configure
// elements that are themselves ignored or rejected when used).
bool IsStoredDefault(std::string_view name) {
  return name == "joint" || name == "geom" || name == "motor" || name == "position";
}
bool IsSkippedDefault(std::string_view name) {
  static const std::set<std::string_view> skipped = {
      "site", "camera", "light", "material", "mesh", "pair", "equality", "tendon", "general",
      "velocity", "intvelocity", "damper", "cylinder", "muscle", "adhesion", "hfield", "texture"};
  return skipped.count(name) > 0;
}

// What one MJCF <body> (or the world) became.
struct BodyInfo {
  int index = kWorldBody;      // our body carrying its inertia and geoms
  SE3 X_BpB;                   // MJCF body frame B in our body frame B'
  std::string childclass = "main";
};

// A body waiting to be added (inertias are final only after settotalmass).
struct PendingBody {
  std::string name;
  int parent = kWorldBody;
  JointModel joint;
  SpatialInertia inertia;
  VecX q0;
  bool real = true;            // false for the massless intermediates of multi-joint bodies
  std::string where;
};

struct PendingCollider {
  Collider collider;
  int contype = 1;
  int conaffinity = 1;
};

class MjcfParser {
 public:
  explicit MjcfParser(std::string path) : path_(std::move(path)) {}

  Scene Parse(const std::string& xml) {
    tinyxml2::XMLDocument doc;
    if (doc.Parse(xml.c_str(), xml.size()) != tinyxml2::XML_SUCCESS) {
      throw ParseError(path_, "line " + std::to_string(doc.ErrorLineNum()),
                       std::string("malformed XML: ") + doc.ErrorStr());
    }
    const XMLElement* root = doc.RootElement();
    if (root == nullptr || std::string_view(root->Name()) != "mujoco") {
      throw ParseError(path_, "", "root element must be <mujoco> (not an MJCF file)");
    }
    CheckAttributes(root);
    scene_.name = root->Attribute("model") ? root->Attribute("model") : "mjcf";
    scene_.source = path_;
    classes_["main"] = {};

    // Settings first: compiler and defaults affect everything below, wherever they appear.
    for (const XMLElement* e = root->FirstChildElement(); e; e = e->NextSiblingElement()) {
      const std::string_view name = e->Name();
      if (name == "compiler") ParseCompiler(e);
    }
    for (const XMLElement* e = root->FirstChildElement(); e; e = e->NextSiblingElement()) {
      const std::string_view name = e->Name();
      if (name == "default") ParseDefault(e, "");
    }
    for (const XMLElement* e = root->FirstChildElement(); e; e = e->NextSiblingElement()) {
      const std::string_view name = e->Name();
      if (name == "compiler" || name == "default") continue;
      if (name == "option") {
        ParseOption(e);
      } else if (name == "worldbody") {
        CheckAttributes(e);
        BodyInfo world;
        ParseBodyChildren(e, world, SE3::Identity(), /*is_world=*/true);
      } else if (name == "actuator" || name == "contact") {
        // Parsed after the bodies exist.
      } else if (!IsIgnoredElement(name)) {
        Unsupported(e);
      }
    }
    for (const XMLElement* e = root->FirstChildElement(); e; e = e->NextSiblingElement()) {
      const std::string_view name = e->Name();
      if (name == "actuator") ParseActuators(e);
      if (name == "contact") ParseContact(e);
    }
    return Finish();
  }

 private:
  // ---------------------------------------------------------------- errors and attributes

  std::string Where(const XMLElement* e) const {
    std::string w = "<" + std::string(e->Name()) + ">";
    if (const char* n = e->Attribute("name")) w += " '" + std::string(n) + "'";
    return w + " (line " + std::to_string(e->GetLineNum()) + ")";
  }

  [[noreturn]] void Unsupported(const XMLElement* e) const {
    throw ParseError(path_, Where(e), "unsupported element <" + std::string(e->Name()) + ">");
  }

  void CheckAttributes(const XMLElement* e, std::string_view table_name = {}) const {
    const auto& tables = AttributeTables();
    const auto it = tables.find(table_name.empty() ? std::string_view(e->Name()) : table_name);
    if (it == tables.end()) Unsupported(e);
    for (const auto* a = e->FirstAttribute(); a; a = a->Next()) {
      const std::string_view n = a->Name();
      if (!it->second.used.count(n) && !it->second.ignored.count(n)) {
        throw ParseError(path_, Where(e) + " / " + std::string(n),
                         "unsupported attribute '" + std::string(n) + "'");
      }
    }
  }

  // An element's attributes with its default class behind them.
  class Attrs {
   public:
    Attrs(const MjcfParser& p, const XMLElement* e, const AttrMap* defaults)
        : p_(p), e_(e), defaults_(defaults) {}

    const XMLElement* element() const { return e_; }
    std::string where() const { return p_.Where(e_); }

    const char* Raw(const char* name) const {
      if (const char* v = e_->Attribute(name)) return v;
      if (defaults_ != nullptr) {
        const auto it = defaults_->find(name);
        if (it != defaults_->end()) return it->second.c_str();
      }
      return nullptr;
    }
    bool Has(const char* name) const { return Raw(name) != nullptr; }
    std::string Str(const char* name, const std::string& fallback = "") const {
      const char* v = Raw(name);
      return v ? std::string(v) : fallback;
    }
    std::vector<double> Nums(const char* name) const {
      const char* v = Raw(name);
      return v ? p_.ParseNumbers(v, where() + " / " + name) : std::vector<double>{};
    }
    // Exactly `count` numbers (or at least `count` when at_least), or the fallback if absent.
    std::vector<double> NumsN(const char* name, size_t count, bool at_least = false) const {
      std::vector<double> x = Nums(name);
      if (Has(name) && (at_least ? x.size() < count : x.size() != count)) {
        throw ParseError(p_.path_, where() + " / " + name,
                         std::string(at_least ? "at least " : "") + std::to_string(count) +
                             " numbers expected, got " + std::to_string(x.size()));
      }
      return x;
    }
    double Num(const char* name, double fallback) const {
      if (!Has(name)) return fallback;
      return NumsN(name, 1)[0];
    }
    Vec3 Vec(const char* name, const Vec3& fallback) const {
      if (!Has(name)) return fallback;
      const std::vector<double> x = NumsN(name, 3);
      return Vec3(x[0], x[1], x[2]);
    }
    // "true" / "false" / "auto" (returned as nullopt); fallback when absent.
    std::optional<bool> Tristate(const char* name, std::optional<bool> fallback) const {
      const char* v = Raw(name);
      if (v == nullptr) return fallback;
      const std::string s = v;
      if (s == "true") return true;
      if (s == "false") return false;
      if (s == "auto") return std::nullopt;
      throw ParseError(p_.path_, where() + " / " + name,
                       "'" + s + "' is not one of true, false, auto");
    }
    bool Bool(const char* name, bool fallback) const {
      const std::optional<bool> b = Tristate(name, fallback);
      if (!b) {
        throw ParseError(p_.path_, where() + " / " + name, "'auto' is not allowed here");
      }
      return *b;
    }

   private:
    const MjcfParser& p_;
    const XMLElement* e_;
    const AttrMap* defaults_;
  };

  std::vector<double> ParseNumbers(const char* text, const std::string& where) const {
    std::vector<double> values;
    const char* s = text;
    for (;;) {
      while (*s != '\0' && std::isspace(static_cast<unsigned char>(*s))) ++s;
      if (*s == '\0') break;
      const char* start = s;
      while (*s != '\0' && !std::isspace(static_cast<unsigned char>(*s))) ++s;
      const std::string token(start, s);
      char* end = nullptr;
      const double x = std::strtod(token.c_str(), &end);
      if (end != token.c_str() + token.size() || !std::isfinite(x)) {
        throw ParseError(path_, where, "'" + token + "' is not a finite number (in \"" +
                                           std::string(text) + "\")");
      }
      values.push_back(x);
    }
    return values;
  }

  const AttrMap* DefaultsFor(const XMLElement* e, const std::string& cls,
                             const std::string& kind) const {
    const auto it = classes_.find(cls);
    if (it == classes_.end()) {
      throw ParseError(path_, Where(e) + " / class", "unknown default class '" + cls + "'");
    }
    const auto k = it->second.find(kind);
    return k == it->second.end() ? nullptr : &k->second;
  }

  Attrs MakeAttrs(const XMLElement* e, const std::string& inherited_class,
                  const std::string& kind) const {
    const char* cls = e->Attribute("class");
    return Attrs(*this, e, DefaultsFor(e, cls ? cls : inherited_class, kind));
  }

  // ---------------------------------------------------------------- orientation

  Mat3 EulerToRotation(const Vec3& angles) const {
    Quat q = Quat::Identity();
    for (int i = 0; i < 3; ++i) {
      const char c = eulerseq_[i];
      const int axis = std::tolower(static_cast<unsigned char>(c)) - 'x';
      const Quat r(Eigen::AngleAxisd(angles[i], Vec3::Unit(axis)));
      // Lower case: axes that move with the frame (post-multiply); upper case: fixed axes.
      q = std::islower(static_cast<unsigned char>(c)) ? q * r : r * q;
    }
    return q.normalized().toRotationMatrix();
  }

  // The pose given by pos and one of quat / axisangle / euler / xyaxes / zaxis.
  SE3 ParsePose(const Attrs& a) const {
    const Vec3 p = a.Vec("pos", Vec3::Zero());
    int count = 0;
    for (const char* n : {"quat", "axisangle", "euler", "xyaxes", "zaxis"}) count += a.Has(n);
    if (count > 1) {
      throw ParseError(path_, a.where(),
                       "more than one of quat, axisangle, euler, xyaxes, zaxis given");
    }
    Mat3 R = Mat3::Identity();
    if (a.Has("quat")) {
      const auto q = a.NumsN("quat", 4);
      const Quat quat(q[0], q[1], q[2], q[3]);
      if (!(quat.norm() > 1e-12)) throw ParseError(path_, a.where() + " / quat", "zero quaternion");
      R = quat.normalized().toRotationMatrix();
    } else if (a.Has("axisangle")) {
      const auto x = a.NumsN("axisangle", 4);
      const Vec3 axis(x[0], x[1], x[2]);
      if (!(axis.norm() > 1e-12)) {
        throw ParseError(path_, a.where() + " / axisangle", "zero rotation axis");
      }
      R = Eigen::AngleAxisd(x[3] * angle_scale_, axis.normalized()).toRotationMatrix();
    } else if (a.Has("euler")) {
      R = EulerToRotation(a.Vec("euler", Vec3::Zero()) * angle_scale_);
    } else if (a.Has("xyaxes")) {
      const auto x = a.NumsN("xyaxes", 6);
      Vec3 ex(x[0], x[1], x[2]), ey(x[3], x[4], x[5]);
      if (!(ex.norm() > 1e-12)) throw ParseError(path_, a.where() + " / xyaxes", "zero x axis");
      ex.normalize();
      ey -= ex.dot(ey) * ex;
      if (!(ey.norm() > 1e-12)) {
        throw ParseError(path_, a.where() + " / xyaxes", "y axis is parallel to x axis");
      }
      ey.normalize();
      R.col(0) = ex;
      R.col(1) = ey;
      R.col(2) = ex.cross(ey);
    } else if (a.Has("zaxis")) {
      const Vec3 z = a.Vec("zaxis", Vec3::UnitZ());
      if (!(z.norm() > 1e-12)) throw ParseError(path_, a.where() + " / zaxis", "zero z axis");
      R = Quat::FromTwoVectors(Vec3::UnitZ(), z.normalized()).toRotationMatrix();
    }
    return SE3(R, p);
  }

  // ---------------------------------------------------------------- settings

  void ParseCompiler(const XMLElement* e) {
    CheckAttributes(e);
    const Attrs a(*this, e, nullptr);
    const std::string angle = a.Str("angle", "degree");
    if (angle == "degree") {
      angle_scale_ = std::numbers::pi / 180.0;
    } else if (angle == "radian") {
      angle_scale_ = 1.0;
    } else {
      throw ParseError(path_, a.where() + " / angle", "'" + angle + "' is not degree or radian");
    }
    const std::string coordinate = a.Str("coordinate", "local");
    if (coordinate != "local" && coordinate != "global") {
      throw ParseError(path_, a.where() + " / coordinate",
                       "'" + coordinate + "' is not local or global");
    }
    global_ = coordinate == "global";
    const std::string ifg = a.Str("inertiafromgeom", "auto");
    if (ifg == "true") {
      inertia_from_geom_ = 1;
    } else if (ifg == "false") {
      inertia_from_geom_ = 0;
    } else if (ifg == "auto") {
      inertia_from_geom_ = -1;
    } else {
      throw ParseError(path_, a.where() + " / inertiafromgeom",
                       "'" + ifg + "' is not one of true, false, auto");
    }
    settotalmass_ = a.Num("settotalmass", -1.0);
    boundmass_ = a.Num("boundmass", 0.0);
    boundinertia_ = a.Num("boundinertia", 0.0);
    autolimits_ = a.Bool("autolimits", true);
    eulerseq_ = a.Str("eulerseq", "xyz");
    bool valid = eulerseq_.size() == 3;
    for (char c : eulerseq_) valid = valid && std::string_view("xyzXYZ").find(c) != std::string_view::npos;
    if (!valid) {
      throw ParseError(path_, a.where() + " / eulerseq",
                       "'" + eulerseq_ + "' is not three of x, y, z, X, Y, Z");
    }
  }

  void ParseOption(const XMLElement* e) {
    CheckAttributes(e);
    const Attrs a(*this, e, nullptr);
    scene_.model.set_gravity(a.Vec("gravity", Vec3(0.0, 0.0, -9.81)));
    if (a.Has("timestep")) {
      scene_.timestep_hint = a.Num("timestep", 0.0);
      if (!(scene_.timestep_hint > 0.0)) {
        throw ParseError(path_, a.where() + " / timestep", "timestep must be > 0");
      }
    }
    for (const char* medium : {"density", "viscosity"}) {
      if (a.Num(medium, 0.0) != 0.0) {
        throw ParseError(path_, a.where() + " / " + medium,
                         "fluid forces (non-zero " + std::string(medium) + ") are not supported");
      }
    }
    if (!a.Vec("wind", Vec3::Zero()).isZero()) {
      throw ParseError(path_, a.where() + " / wind", "wind is not supported");
    }
    for (const XMLElement* c = e->FirstChildElement(); c; c = c->NextSiblingElement()) {
      if (std::string_view(c->Name()) != "flag") Unsupported(c);
      CheckAttributes(c);
      const Attrs f(*this, c, nullptr);
      if (f.Str("gravity", "enable") == "disable") scene_.model.set_gravity(Vec3::Zero());
      for (const char* flag : {"contact", "constraint", "limit", "passive", "actuation"}) {
        if (f.Str(flag, "enable") != "enable") {
          throw ParseError(path_, f.where() + " / " + flag,
                           "disabling '" + std::string(flag) + "' is not supported");
        }
      }
    }
  }

  void ParseDefault(const XMLElement* e, const std::string& parent_class) {
    CheckAttributes(e);
    std::string cls = "main";
    if (!parent_class.empty()) {
      const char* name = e->Attribute("class");
      if (name == nullptr) {
        throw ParseError(path_, Where(e), "a nested <default> needs a class attribute");
      }
      cls = name;
      if (classes_.count(cls)) {
        throw ParseError(path_, Where(e) + " / class", "default class '" + cls + "' is repeated");
      }
      classes_[cls] = classes_[parent_class];  // inherit, then override below
    }
    for (const XMLElement* c = e->FirstChildElement(); c; c = c->NextSiblingElement()) {
      const std::string_view name = c->Name();
      if (name == "default") {
        ParseDefault(c, cls);
      } else if (IsStoredDefault(name)) {
        CheckAttributes(c);
        // All actuator shortcuts share one default in MuJoCo.
        const std::string kind =
            (name == "motor" || name == "position") ? "actuator" : std::string(name);
        for (const auto* a = c->FirstAttribute(); a; a = a->Next()) {
          if (std::string_view(a->Name()) == "class" || std::string_view(a->Name()) == "name") {
            continue;
          }
          classes_[cls][kind][a->Name()] = a->Value();
        }
      } else if (!IsSkippedDefault(name)) {
        Unsupported(c);
      }
    }
  }

  // ---------------------------------------------------------------- bodies

  // Children of <worldbody>, <body> or <frame>. X_BF places a <frame> in the enclosing body
  // (identity for the body itself).
  void ParseBodyChildren(const XMLElement* e, const BodyInfo& owner, const SE3& X_BF,
                         bool is_world) {
    for (const XMLElement* c = e->FirstChildElement(); c; c = c->NextSiblingElement()) {
      const std::string_view name = c->Name();
      if (name == "geom") {
        ParseGeom(c, owner, X_BF, is_world);
      } else if (name == "body") {
        ParseBody(c, owner, X_BF, is_world);
      } else if (name == "frame") {
        if (global_) {
          throw ParseError(path_, Where(c), "<frame> needs coordinate=\"local\"");
        }
        CheckAttributes(c);
        BodyInfo framed = owner;
        if (const char* cc = c->Attribute("childclass")) framed.childclass = cc;
        const SE3 X_FG = ParsePose(Attrs(*this, c, nullptr));
        ParseBodyChildren(c, framed, X_BF * X_FG, is_world);
      } else if (name == "site" || name == "camera" || name == "light") {
        continue;
      } else if ((name == "joint" || name == "freejoint" || name == "inertial") && !is_world &&
                 e->Name() == std::string_view("body")) {
        continue;  // handled by ParseBody
      } else {
        Unsupported(c);
      }
    }
  }

  struct JointSpec {
    JointModel model;
    Vec3 pos = Vec3::Zero();
    double ref = 0.0;
    const XMLElement* element = nullptr;
  };

  // X_BW maps the file's coordinates into the MJCF body frame (identity for local coordinates).
  JointSpec ParseJoint(const XMLElement* e, const std::string& childclass,
                       const std::string& body_name, int index, const SE3& X_BW) {
    JointSpec spec;
    spec.element = e;
    JointModel& jm = spec.model;
    if (std::string_view(e->Name()) == "freejoint") {
      CheckAttributes(e);
      jm.type = JointType::kFree;
      jm.name = e->Attribute("name") ? e->Attribute("name") : body_name + "_free";
      return spec;
    }
    CheckAttributes(e);
    const Attrs a = MakeAttrs(e, childclass, "joint");
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
    const double unit = angular ? angle_scale_ : 1.0;
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
    if (!limited) limited = autolimits_ && a.Has("range");
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
        throw ParseError(path_, a.where() + " / range",
                         "lower limit exceeds upper limit");
      }
    }
    return spec;
  }

  SpatialInertia ParseInertial(const XMLElement* e, const SE3& X_BW) const {
    CheckAttributes(e);
    const Attrs a(*this, e, nullptr);
    const SE3 X_BI = X_BW * ParsePose(a);
    if (!a.Has("mass")) throw ParseError(path_, a.where(), "<inertial> needs a mass");
    const double m = a.Num("mass", 0.0);
    if (m < 0.0) throw ParseError(path_, a.where() + " / mass", "mass must be >= 0");
    Mat3 I = Mat3::Zero();
    if (a.Has("diaginertia") == a.Has("fullinertia")) {
      throw ParseError(path_, a.where(), "give exactly one of diaginertia, fullinertia");
    }
    if (a.Has("diaginertia")) {
      I = a.Vec("diaginertia", Vec3::Zero()).asDiagonal();
    } else {
      const auto f = a.NumsN("fullinertia", 6);  // Ixx Iyy Izz Ixy Ixz Iyz
      I << f[0], f[3], f[4], f[3], f[1], f[5], f[4], f[5], f[2];
    }
    return SpatialInertia(m, Vec3::Zero(), I).Transformed(X_BI);
  }

  void ParseBody(const XMLElement* e, const BodyInfo& parent, const SE3& X_PF, bool parent_is_world) {
    CheckAttributes(e);
    const Attrs a(*this, e, nullptr);
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
    if (!classes_.count(info.childclass)) {
      throw ParseError(path_, a.where() + " / childclass",
                       "unknown default class '" + info.childclass + "'");
    }
    // Pose of the MJCF body B0 in our parent body frame P'.
    // Global coordinates: the pose is X_WB0 and X_PF is the parent's X_PW.
    const SE3 pose = ParsePose(a);
    const SE3 X_PpB0 = parent.X_BpB * X_PF * pose;
    const SE3 X_B0W = global_ ? pose.Inverse() : SE3::Identity();

    std::vector<JointSpec> joints;
    std::optional<SpatialInertia> inertial;
    for (const XMLElement* c = e->FirstChildElement(); c; c = c->NextSiblingElement()) {
      const std::string_view cname = c->Name();
      if (cname == "joint" || cname == "freejoint") {
        joints.push_back(
            ParseJoint(c, info.childclass, name, static_cast<int>(joints.size()), X_B0W));
      } else if (cname == "inertial") {
        if (inertial) throw ParseError(path_, Where(c), "a body has at most one <inertial>");
        inertial = ParseInertial(c, X_B0W);
      }
    }

    // Build the joint chain (see the file comment).
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
      attach = AddPending(std::move(b));
    } else {
      for (size_t k = 0; k < joints.size(); ++k) {
        JointSpec& j = joints[k];
        const bool last = k + 1 == joints.size();
        PendingBody b;
        b.name = last ? name : name + "/" + j.model.name;
        b.parent = attach;
        b.real = last;
        b.where = Where(j.element);
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
        scene_.excluded_body_pairs.emplace_back(parent.index, attach);
      }
    }
    info.index = attach;
    info.X_BpB = X_BpB;
    body_index_[name] = attach;
    explicit_inertial_[attach] = inertial;
    correction_[attach] = X_BpB;

    ParseBodyChildren(e, info, X_B0W, /*is_world=*/false);
  }

  int AddPending(PendingBody b) {
    pending_.push_back(std::move(b));
    return static_cast<int>(pending_.size()) - 1;
  }

  // ---------------------------------------------------------------- geoms

  void ParseGeom(const XMLElement* e, const BodyInfo& owner, const SE3& X_BF, bool is_world) {
    const int index = geom_count_[owner.index]++;
    CheckAttributes(e);
    const Attrs a = MakeAttrs(e, owner.childclass, "geom");
    const std::string type = a.Str("type", "sphere");
    const std::vector<double> size = a.Nums("size");
    auto need = [&](size_t n) {
      if (size.size() < n) {
        throw ParseError(path_, a.where() + " / size",
                         type + " needs " + std::to_string(n) + " size values, got " +
                             std::to_string(size.size()));
      }
      for (size_t i = 0; i < n; ++i) {
        if (!(size[i] > 0.0)) {
          throw ParseError(path_, a.where() + " / size", "sizes must be > 0");
        }
      }
    };
    SE3 X_BG = ParsePose(a);
    double half_length = 0.0;
    if (a.Has("fromto")) {
      if (type != "capsule" && type != "cylinder") {
        throw ParseError(path_, a.where() + " / fromto",
                         "fromto is supported for capsule and cylinder only");
      }
      const auto f = a.NumsN("fromto", 6);
      const Vec3 p0(f[0], f[1], f[2]), p1(f[3], f[4], f[5]);
      const Vec3 d = p1 - p0;
      if (!(d.norm() > 1e-12)) {
        throw ParseError(path_, a.where() + " / fromto", "the two end points coincide");
      }
      X_BG = SE3(Quat::FromTwoVectors(Vec3::UnitZ(), d.normalized()).toRotationMatrix(),
                 0.5 * (p0 + p1));
      half_length = 0.5 * d.norm();
    }
    Shape shape;
    double volume = 0.0;
    std::optional<SpatialInertia> unit_inertia;  // inertia of the solid at unit mass
    if (type == "plane") {
      shape = HalfSpace{};
    } else if (type == "sphere") {
      need(1);
      shape = Sphere{size[0]};
      volume = 4.0 / 3.0 * std::numbers::pi * std::pow(size[0], 3);
      unit_inertia = SpatialInertia::SolidSphere(1.0, size[0]);
    } else if (type == "capsule" || type == "cylinder") {
      need(a.Has("fromto") ? 1 : 2);
      if (!a.Has("fromto")) half_length = size[1];
      const double r = size[0];
      if (type == "capsule") {
        shape = Capsule{r, half_length};
        volume = std::numbers::pi * r * r * (2.0 * half_length + 4.0 / 3.0 * r);
        unit_inertia = SpatialInertia::SolidCapsule(1.0, r, half_length);
      } else {
        shape = Cylinder{r, half_length};
        volume = std::numbers::pi * r * r * 2.0 * half_length;
        unit_inertia = SpatialInertia::SolidCylinder(1.0, r, half_length);
      }
    } else if (type == "box") {
      need(3);
      const Vec3 h(size[0], size[1], size[2]);
      shape = Box{h};
      volume = 8.0 * h.prod();
      unit_inertia = SpatialInertia::SolidBox(1.0, h);
    } else if (type == "ellipsoid") {
      need(3);
      const Vec3 r(size[0], size[1], size[2]);
      shape = Ellipsoid{r};
      volume = 4.0 / 3.0 * std::numbers::pi * r.prod();
      const Vec3 r2 = r.cwiseProduct(r);
      const Vec3 moments = Vec3(r2.y() + r2.z(), r2.x() + r2.z(), r2.x() + r2.y()) / 5.0;
      unit_inertia = SpatialInertia(1.0, Vec3::Zero(), moments.asDiagonal());
    } else {
      throw ParseError(path_, a.where() + " / type",
                       "geom type '" + type +
                           "' is not supported (plane, sphere, capsule, cylinder, box, ellipsoid)");
    }
    const SE3 X_BpG = owner.X_BpB * X_BF * X_BG;

    if (type == "plane" && !is_world) {
      throw ParseError(path_, a.where() + " / type", "planes are only supported in <worldbody>");
    }
    if (!is_world && unit_inertia) {
      double mass = 0.0;
      if (a.Has("mass")) {
        mass = a.Num("mass", 0.0);
      } else {
        mass = a.Num("density", 1000.0) * volume;
      }
      if (mass < 0.0) throw ParseError(path_, a.where() + " / mass", "mass must be >= 0");
      const SpatialInertia unit = *unit_inertia;
      const SpatialInertia inertia(mass, unit.com(), unit.inertia_com() * mass);
      geom_inertia_[owner.index] = geom_inertia_[owner.index] + inertia.Transformed(X_BpG);
    }

    PendingCollider pc;
    Collider& c = pc.collider;
    c.name = a.Str("name", (owner.index == kWorldBody ? std::string("world")
                                                      : pending_[owner.index].name) +
                               "_geom" + std::to_string(index));
    c.body = owner.index;
    c.placement = X_BpG;
    c.shape = shape;
    const std::vector<double> friction = a.NumsN("friction", 1, /*at_least=*/true);
    c.friction = friction.empty() ? 1.0 : friction[0];
    if (c.friction < 0.0) throw ParseError(path_, a.where() + " / friction", "must be >= 0");
    pc.contype = static_cast<int>(a.Num("contype", 1.0));
    pc.conaffinity = static_cast<int>(a.Num("conaffinity", 1.0));
    if (pc.contype == 0 && pc.conaffinity == 0) return;  // visual geom: mass only
    colliders_.push_back(std::move(pc));
  }

  // ---------------------------------------------------------------- actuators and contact

  void ParseActuators(const XMLElement* e) {
    CheckAttributes(e);
    for (const XMLElement* c = e->FirstChildElement(); c; c = c->NextSiblingElement()) {
      const std::string_view kind = c->Name();
      if (kind != "motor" && kind != "position") Unsupported(c);
      CheckAttributes(c);
      const Attrs a = MakeAttrs(c, "main", "actuator");
      Actuator act;
      act.name = a.Str("name", "actuator" + std::to_string(scene_.actuators.size()));
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
      const std::vector<double> gear = a.NumsN("gear", 1, /*at_least=*/true);
      const double g = gear.empty() ? 1.0 : gear[0];
      std::optional<bool> ctrl_limited = a.Tristate("ctrllimited", std::nullopt);
      if (!ctrl_limited) ctrl_limited = autolimits_ && a.Has("ctrlrange");
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
      if (!force_limited) force_limited = autolimits_ && a.Has("forcerange");
      if (*force_limited) {
        throw ParseError(path_, a.where() + " / forcerange",
                         "actuator force limits are not supported");
      }
      if (kind == "motor") {
        act.type = ActuatorType::kTorque;
        act.gear = g;
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
      scene_.actuators.push_back(std::move(act));
    }
  }

  void ParseContact(const XMLElement* e) {
    CheckAttributes(e);
    for (const XMLElement* c = e->FirstChildElement(); c; c = c->NextSiblingElement()) {
      if (std::string_view(c->Name()) != "exclude") Unsupported(c);
      CheckAttributes(c);
      const Attrs a(*this, c, nullptr);
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
      scene_.excluded_body_pairs.emplace_back(ids[0], ids[1]);
    }
  }

  // ---------------------------------------------------------------- assembly

  Scene Finish() {
    // Body inertias: explicit <inertial> or the geoms, as the compiler says.
    double total = 0.0;
    for (int i = 0; i < static_cast<int>(pending_.size()); ++i) {
      PendingBody& b = pending_[i];
      if (!b.real) continue;
      const auto& explicit_inertial = explicit_inertial_[i];
      const bool from_geom =
          inertia_from_geom_ == 1 || (inertia_from_geom_ == -1 && !explicit_inertial);
      if (from_geom) {
        b.inertia = geom_inertia_.count(i) ? geom_inertia_[i] : SpatialInertia();
      } else if (explicit_inertial) {
        // <inertial> is in the MJCF body frame; ours differs by the last joint's anchor.
        b.inertia = explicit_inertial->Transformed(BodyFrameCorrection(i));
      }
      if (boundmass_ > 0.0 && b.inertia.mass() < boundmass_) {
        b.inertia = SpatialInertia(boundmass_, b.inertia.com(), b.inertia.inertia_com());
      }
      if (boundinertia_ > 0.0) {
        Eigen::SelfAdjointEigenSolver<Mat3> eig(b.inertia.inertia_com());
        const Vec3 d = eig.eigenvalues().cwiseMax(boundinertia_);
        const Mat3 V = eig.eigenvectors();
        b.inertia = SpatialInertia(b.inertia.mass(), b.inertia.com(),
                                   V * d.asDiagonal() * V.transpose());
      }
      total += b.inertia.mass();
    }
    if (settotalmass_ > 0.0) {
      if (!(total > 0.0)) {
        throw ParseError(path_, "<compiler> / settotalmass", "the bodies have no mass to scale");
      }
      const double scale = settotalmass_ / total;
      for (PendingBody& b : pending_) {
        b.inertia = SpatialInertia(b.inertia.mass() * scale, b.inertia.com(),
                                   b.inertia.inertia_com() * scale);
      }
    }
    // A moving body needs mass in its subtree (Scene::Validate's rule, checked here to name
    // the element and line).
    std::vector<double> subtree_mass(pending_.size(), 0.0);
    for (int i = static_cast<int>(pending_.size()) - 1; i >= 0; --i) {
      subtree_mass[i] += pending_[i].inertia.mass();
      if (pending_[i].parent != kWorldBody) subtree_mass[pending_[i].parent] += subtree_mass[i];
    }
    for (size_t i = 0; i < pending_.size(); ++i) {
      if (pending_[i].joint.nv() > 0 && !(subtree_mass[i] > 0.0)) {
        throw ParseError(path_, pending_[i].where,
                         "body '" + pending_[i].name +
                             "' moves but has no mass (no <inertial>, no geoms, nothing below it)");
      }
    }
    VecX q0(0);
    for (const PendingBody& b : pending_) {
      try {
        scene_.model.AddBody(b.name, b.parent, b.joint, b.inertia);
      } catch (const InvalidArgument& e) {
        throw ParseError(path_, b.where, e.what());
      }
      q0.conservativeResize(q0.size() + b.q0.size());
      q0.tail(b.q0.size()) = b.q0;
    }
    scene_.default_q = q0;
    AssignCollisionGroups();
    try {
      scene_.Validate();
    } catch (const InvalidArgument& e) {
      throw ParseError(path_, "", e.what());
    }
    return std::move(scene_);
  }

  // X_B'B of a real body: T(-p_last) for a jointed body, identity otherwise. <inertial> is
  // kept in the MJCF body frame until inertiafromgeom has decided whether it is used.
  SE3 BodyFrameCorrection(int i) const {
    const auto it = correction_.find(i);
    return it == correction_.end() ? SE3::Identity() : it->second;
  }

  void AssignCollisionGroups() {
    std::vector<std::pair<int, int>> classes;  // distinct (contype, conaffinity)
    for (const PendingCollider& pc : colliders_) {
      const std::pair<int, int> key{pc.contype, pc.conaffinity};
      if (std::find(classes.begin(), classes.end(), key) == classes.end()) classes.push_back(key);
    }
    if (classes.size() > 32) {
      throw ParseError(path_, "", "more than 32 distinct (contype, conaffinity) combinations");
    }
    for (PendingCollider& pc : colliders_) {
      const std::pair<int, int> key{pc.contype, pc.conaffinity};
      const auto i = std::find(classes.begin(), classes.end(), key) - classes.begin();
      std::uint32_t mask = 0;
      for (size_t j = 0; j < classes.size(); ++j) {
        const bool pair = (key.first & classes[j].second) || (classes[j].first & key.second);
        if (pair) mask |= 1u << j;
      }
      pc.collider.group = 1u << i;
      pc.collider.mask = mask;
      scene_.colliders.push_back(std::move(pc.collider));
    }
  }

  std::string path_;
  Scene scene_;
  // <compiler>
  double angle_scale_ = std::numbers::pi / 180.0;  // MuJoCo's default unit is degrees
  int inertia_from_geom_ = -1;                     // 1 true, 0 false, -1 auto
  double settotalmass_ = -1.0;
  double boundmass_ = 0.0;
  double boundinertia_ = 0.0;
  bool autolimits_ = true;
  bool global_ = false;  // coordinate="global": poses, joint anchors and axes in the world frame
  std::string eulerseq_ = "xyz";
  // Default classes: class -> element kind (joint, geom, actuator) -> attributes.
  std::map<std::string, std::map<std::string, AttrMap>> classes_;

  std::vector<PendingBody> pending_;
  std::vector<PendingCollider> colliders_;
  std::map<int, SpatialInertia> geom_inertia_;                 // per body, in our body frame
  std::map<int, std::optional<SpatialInertia>> explicit_inertial_;  // in the MJCF body frame
  std::map<int, SE3> correction_;                              // X_B'B per real body
  std::map<std::string, int> body_index_;
  std::map<int, int> geom_count_;                              // per body, for default names
  int num_mjcf_bodies_ = 0;
};

}  // namespace

Scene LoadMjcf(const std::string& path) {
  const std::string xml = ReadMaybeGzipped(path);
  return MjcfParser(path).Parse(xml);
}

}  // namespace arena
