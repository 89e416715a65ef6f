// Which MJCF elements and attributes the loader accepts, how attribute values are read, and
// default classes.
#include <cctype>
#include <cmath>
#include <cstdlib>
#include <set>

#include "core/common/error.h"
#include "core/scene/mjcf_internal.h"

namespace arena::mjcf_internal {

namespace {

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
      {"frame",
       {{"name", "childclass", "pos", "quat", "axisangle", "euler", "xyaxes", "zaxis"}, {}}},
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
        {"condim", "mesh", "hfield", "rgba", "material", "group", "margin", "gap", "solref",
         "solimp", "solmix", "priority", "user", "fluidshape", "fluidcoef"}}},
      {"motor",
       {{"name", "class", "joint", "gear", "ctrlrange", "ctrllimited", "forcerange",
         "forcelimited"},
        {"group", "user"}}},
      {"position",
       {{"name", "class", "joint", "gear", "ctrlrange", "ctrllimited", "forcerange",
         "forcelimited", "kp", "kv"},
        {"group", "user"}}},
      {"velocity",
       {{"name", "class", "joint", "gear", "ctrlrange", "ctrllimited", "forcerange",
         "forcelimited", "kv"},
        {"group", "user"}}},
      {"exclude", {{"body1", "body2"}, {"name"}}},
  };
  return tables;
}

// Default-class children we store, and those that are harmless to skip (they configure
// elements that are themselves ignored or rejected when used).
bool IsStoredDefault(std::string_view name) {
  return name == "joint" || name == "geom" || name == "motor" || name == "position" || name == "velocity";
}
bool IsSkippedDefault(std::string_view name) {
  static const std::set<std::string_view> skipped = {
      "site", "camera", "light", "material", "mesh", "pair", "equality", "tendon", "general",
      "intvelocity", "damper", "cylinder", "muscle", "adhesion", "hfield", "texture"};
  return skipped.count(name) > 0;
}

std::vector<double> ParseNumbers(const std::string& path, const char* text,
                                 const std::string& where) {
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
      throw ParseError(path, where, "'" + token + "' is not a finite number (in \"" +
                                         std::string(text) + "\")");
    }
    values.push_back(x);
  }
  return values;
}

}  // namespace

std::string Where(const XMLElement* e) {
  std::string w = "<" + std::string(e->Name()) + ">";
  if (const char* n = e->Attribute("name")) w += " '" + std::string(n) + "'";
  return w + " (line " + std::to_string(e->GetLineNum()) + ")";
}

[[noreturn]] void Unsupported(const std::string& path, const XMLElement* e) {
  throw ParseError(path, Where(e), "unsupported element <" + std::string(e->Name()) + ">");
}

void CheckAttributes(const std::string& path, const XMLElement* e) {
  const auto& tables = AttributeTables();
  const auto it = tables.find(std::string_view(e->Name()));
  if (it == tables.end()) Unsupported(path, e);
  for (const auto* a = e->FirstAttribute(); a; a = a->Next()) {
    const std::string_view n = a->Name();
    if (!it->second.used.count(n) && !it->second.ignored.count(n)) {
      throw ParseError(path, Where(e) + " / " + std::string(n),
                       "unsupported attribute '" + std::string(n) + "'");
    }
  }
}

bool IsIgnoredElement(std::string_view name) {
  static const std::set<std::string_view> ignored = {
      "size", "visual", "statistic", "asset", "sensor", "keyframe", "custom", "light",
      "camera", "site", "texture", "material"};
  return ignored.count(name) > 0;
}

// ---------------------------------------------------------------- Attrs

const char* Attrs::Raw(const char* name) const {
  if (const char* v = e_->Attribute(name)) return v;
  if (defaults_ != nullptr) {
    const auto it = defaults_->find(name);
    if (it != defaults_->end()) return it->second.c_str();
  }
  return nullptr;
}

std::string Attrs::Str(const char* name, const std::string& fallback) const {
  const char* v = Raw(name);
  return v ? std::string(v) : fallback;
}

std::vector<double> Attrs::Nums(const char* name) const {
  const char* v = Raw(name);
  return v ? ParseNumbers(path_, v, where() + " / " + name) : std::vector<double>{};
}

std::vector<double> Attrs::NumsN(const char* name, size_t count, bool at_least) const {
  std::vector<double> x = Nums(name);
  if (Has(name) && (at_least ? x.size() < count : x.size() != count)) {
    throw ParseError(path_, where() + " / " + name,
                     std::string(at_least ? "at least " : "") + std::to_string(count) +
                         " numbers expected, got " + std::to_string(x.size()));
  }
  return x;
}

double Attrs::Num(const char* name, double fallback) const {
  if (!Has(name)) return fallback;
  return NumsN(name, 1)[0];
}

Vec3 Attrs::Vec(const char* name, const Vec3& fallback) const {
  if (!Has(name)) return fallback;
  const std::vector<double> x = NumsN(name, 3);
  return Vec3(x[0], x[1], x[2]);
}

std::optional<bool> Attrs::Tristate(const char* name, std::optional<bool> fallback) const {
  const char* v = Raw(name);
  if (v == nullptr) return fallback;
  const std::string s = v;
  if (s == "true") return true;
  if (s == "false") return false;
  if (s == "auto") return std::nullopt;
  throw ParseError(path_, where() + " / " + name,
                   "'" + s + "' is not one of true, false, auto");
}

bool Attrs::Bool(const char* name, bool fallback) const {
  const std::optional<bool> b = Tristate(name, fallback);
  if (!b) {
    throw ParseError(path_, where() + " / " + name, "'auto' is not allowed here");
  }
  return *b;
}

// ---------------------------------------------------------------- DefaultClasses

DefaultClasses::DefaultClasses(const std::string& path) : path_(path) { classes_["main"] = {}; }

void DefaultClasses::Parse(const XMLElement* e, const std::string& parent_class) {
  CheckAttributes(path_, e);
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
      Parse(c, cls);
    } else if (IsStoredDefault(name)) {
      CheckAttributes(path_, c);
      // All actuator shortcuts share one default in MuJoCo.
      const std::string kind =
          (name == "motor" || name == "position" || name == "velocity") ? "actuator" : std::string(name);
      for (const auto* a = c->FirstAttribute(); a; a = a->Next()) {
        if (std::string_view(a->Name()) == "class" || std::string_view(a->Name()) == "name") {
          continue;
        }
        classes_[cls][kind][a->Name()] = a->Value();
      }
    } else if (!IsSkippedDefault(name)) {
      Unsupported(path_, c);
    }
  }
}

Attrs DefaultClasses::AttrsFor(const XMLElement* e, const std::string& inherited_class,
                               const std::string& kind) const {
  const char* name = e->Attribute("class");
  const std::string cls = name ? name : inherited_class;
  const auto it = classes_.find(cls);
  if (it == classes_.end()) {
    throw ParseError(path_, Where(e) + " / class", "unknown default class '" + cls + "'");
  }
  const auto k = it->second.find(kind);
  return Attrs(path_, e, k == it->second.end() ? nullptr : &k->second);
}

}  // namespace arena::mjcf_internal
