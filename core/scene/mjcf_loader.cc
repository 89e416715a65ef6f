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

#include <algorithm>
#include <array>
#include <cstdint>
#include <numbers>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/common/error.h"
#include "core/common/input_file.h"
#include "core/scene/loader.h"
#include "core/scene/mjcf_internal.h"
#include "core/scene/source_elements.h"

namespace arena {

namespace {

using mjcf_internal::Attrs;
using mjcf_internal::BodyTreeBuilder;
using mjcf_internal::CheckAttributes;
using mjcf_internal::CompilerSettings;
using mjcf_internal::DefaultClasses;
using mjcf_internal::IsIgnoredElement;
using mjcf_internal::PendingBody;
using mjcf_internal::PendingCollider;
using mjcf_internal::ResolveInertias;
using mjcf_internal::Unsupported;
using mjcf_internal::XMLElement;

std::string ReadMaybeGzipped(const std::string& path) {
  CheckInputFile(path, "MJCF file");
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

CompilerSettings ParseCompiler(const std::string& path, const XMLElement* e) {
  CheckAttributes(path, e);
  const Attrs a(path, e, nullptr);
  CompilerSettings s;
  const std::string angle = a.Str("angle", "degree");
  if (angle == "degree") {
    s.angle_scale = std::numbers::pi / 180.0;
  } else if (angle == "radian") {
    s.angle_scale = 1.0;
  } else {
    throw ParseError(path, a.where() + " / angle", "'" + angle + "' is not degree or radian");
  }
  const std::string coordinate = a.Str("coordinate", "local");
  if (coordinate != "local" && coordinate != "global") {
    throw ParseError(path, a.where() + " / coordinate",
                     "'" + coordinate + "' is not local or global");
  }
  s.global = coordinate == "global";
  const std::string ifg = a.Str("inertiafromgeom", "auto");
  if (ifg == "true") {
    s.inertia_from_geom = 1;
  } else if (ifg == "false") {
    s.inertia_from_geom = 0;
  } else if (ifg == "auto") {
    s.inertia_from_geom = -1;
  } else {
    throw ParseError(path, a.where() + " / inertiafromgeom",
                     "'" + ifg + "' is not one of true, false, auto");
  }
  s.settotalmass = a.Num("settotalmass", -1.0);
  s.boundmass = a.Num("boundmass", 0.0);
  s.boundinertia = a.Num("boundinertia", 0.0);
  s.autolimits = a.Bool("autolimits", true);
  s.eulerseq = a.Str("eulerseq", "xyz");
  bool valid = s.eulerseq.size() == 3;
  for (char c : s.eulerseq) {
    valid = valid && std::string_view("xyzXYZ").find(c) != std::string_view::npos;
  }
  if (!valid) {
    throw ParseError(path, a.where() + " / eulerseq",
                     "'" + s.eulerseq + "' is not three of x, y, z, X, Y, Z");
  }
  return s;
}

void ParseOption(const std::string& path, const XMLElement* e, Scene* scene) {
  CheckAttributes(path, e);
  const Attrs a(path, e, nullptr);
  scene->model.set_gravity(a.Vec("gravity", Vec3(0.0, 0.0, -9.81)));
  if (a.Has("timestep")) {
    scene->timestep_hint = a.Num("timestep", 0.0);
    if (!(scene->timestep_hint > 0.0)) {
      throw ParseError(path, a.where() + " / timestep", "timestep must be > 0");
    }
  }
  for (const char* medium : {"density", "viscosity"}) {
    if (a.Num(medium, 0.0) != 0.0) {
      throw ParseError(path, a.where() + " / " + medium,
                       "fluid forces (non-zero " + std::string(medium) + ") are not supported");
    }
  }
  if (!a.Vec("wind", Vec3::Zero()).isZero()) {
    throw ParseError(path, a.where() + " / wind", "wind is not supported");
  }
  for (const XMLElement* c = e->FirstChildElement(); c; c = c->NextSiblingElement()) {
    if (std::string_view(c->Name()) != "flag") Unsupported(path, c);
    CheckAttributes(path, c);
    const Attrs f(path, c, nullptr);
    if (f.Str("gravity", "enable") == "disable") scene->model.set_gravity(Vec3::Zero());
    for (const char* flag : {"contact", "constraint", "limit", "passive", "actuation"}) {
      if (f.Str(flag, "enable") != "enable") {
        throw ParseError(path, f.where() + " / " + flag,
                         "disabling '" + std::string(flag) + "' is not supported");
      }
    }
  }
}

void AssignCollisionGroups(const std::string& path, std::vector<PendingCollider>* colliders,
                           Scene* scene, SourceElements* elements) {
  std::vector<std::pair<int, int>> classes;  // distinct (contype, conaffinity)
  for (const PendingCollider& pc : *colliders) {
    const std::pair<int, int> key{pc.contype, pc.conaffinity};
    if (std::find(classes.begin(), classes.end(), key) == classes.end()) classes.push_back(key);
  }
  if (classes.size() > 32) {
    throw ParseError(path, "", "more than 32 distinct (contype, conaffinity) combinations");
  }
  for (PendingCollider& pc : *colliders) {
    elements->collider.push_back(pc.where);
    const std::pair<int, int> key{pc.contype, pc.conaffinity};
    const auto i = std::find(classes.begin(), classes.end(), key) - classes.begin();
    std::uint32_t mask = 0;
    for (size_t j = 0; j < classes.size(); ++j) {
      const bool pair = (key.first & classes[j].second) || (classes[j].first & key.second);
      if (pair) mask |= 1u << j;
    }
    pc.collider.group = 1u << i;
    pc.collider.mask = mask;
    scene->colliders.push_back(std::move(pc.collider));
  }
}

// Bodies, colliders and default_q into the scene, once every element has been read.
void Finish(const std::string& path, const CompilerSettings& compiler, BodyTreeBuilder* tree,
            Scene* scene) {
  std::vector<PendingBody>& bodies = tree->bodies();
  ResolveInertias(path, compiler, &bodies);
  // A moving body needs mass in its subtree (Scene::Validate's rule, checked here to name
  // the element and line).
  std::vector<double> subtree_mass(bodies.size(), 0.0);
  for (int i = static_cast<int>(bodies.size()) - 1; i >= 0; --i) {
    subtree_mass[i] += bodies[i].inertia.mass();
    if (bodies[i].parent != kWorldBody) subtree_mass[bodies[i].parent] += subtree_mass[i];
  }
  for (size_t i = 0; i < bodies.size(); ++i) {
    if (bodies[i].joint.nv() > 0 && !(subtree_mass[i] > 0.0)) {
      throw ParseError(path, bodies[i].where,
                       "body '" + bodies[i].name +
                           "' moves but has no mass (no <inertial>, no geoms, nothing below it)");
    }
  }
  VecX q0(0);
  SourceElements elements;
  for (const PendingBody& b : bodies) {
    // Geom-derived inertias (and settotalmass / boundinertia) are checked here, on the final
    // numbers; an <inertial>'s own numbers were checked where it was read.
    if (std::string problem = ValidateInertia(b.inertia); !problem.empty()) {
      throw ParseError(path, b.inertia_where, problem);
    }
    try {
      scene->model.AddBody(b.name, b.parent, b.joint, b.inertia);
    } catch (const InvalidArgument& e) {
      throw ParseError(path, b.where, e.what());
    }
    elements.body.push_back(b.where);
    elements.inertia.push_back(b.inertia_where);
    elements.joint.push_back(b.joint_where);
    q0.conservativeResize(q0.size() + b.q0.size());
    q0.tail(b.q0.size()) = b.q0;
  }
  scene->default_q = q0;
  AssignCollisionGroups(path, &tree->colliders(), scene, &elements);
  elements.actuator = tree->actuator_elements();
  ValidateLoadedScene(*scene, path, elements);
}

Scene ParseMjcf(const std::string& path, const std::string& xml) {
  if (xml.find_first_not_of(" \t\r\n") == std::string::npos) {
    throw ParseError(path, "", "the file contains only white space; expected an MJCF <mujoco>");
  }
  tinyxml2::XMLDocument doc;
  if (doc.Parse(xml.c_str(), xml.size()) != tinyxml2::XML_SUCCESS) {
    throw ParseError(path, "line " + std::to_string(doc.ErrorLineNum()),
                     std::string("malformed XML: ") + doc.ErrorStr());
  }
  const XMLElement* root = doc.RootElement();
  if (root == nullptr || std::string_view(root->Name()) != "mujoco") {
    throw ParseError(path, "", "root element must be <mujoco> (not an MJCF file)");
  }
  CheckAttributes(path, root);
  Scene scene;
  scene.name = root->Attribute("model") ? root->Attribute("model") : "mjcf";
  scene.source = path;

  // Settings first: compiler and defaults affect everything below, wherever they appear.
  CompilerSettings compiler;
  for (const XMLElement* e = root->FirstChildElement(); e; e = e->NextSiblingElement()) {
    const std::string_view name = e->Name();
    if (name == "compiler") compiler = ParseCompiler(path, e);
  }
  DefaultClasses defaults(path);
  for (const XMLElement* e = root->FirstChildElement(); e; e = e->NextSiblingElement()) {
    const std::string_view name = e->Name();
    if (name == "default") defaults.Parse(e, "");
  }
  BodyTreeBuilder tree(path, compiler, defaults, &scene);
  for (const XMLElement* e = root->FirstChildElement(); e; e = e->NextSiblingElement()) {
    const std::string_view name = e->Name();
    if (name == "compiler" || name == "default") continue;
    if (name == "option") {
      ParseOption(path, e, &scene);
    } else if (name == "worldbody") {
      tree.ParseWorldBody(e);
    } else if (name == "actuator" || name == "contact") {
      // Parsed after the bodies exist.
    } else if (!IsIgnoredElement(name)) {
      Unsupported(path, e);
    }
  }
  for (const XMLElement* e = root->FirstChildElement(); e; e = e->NextSiblingElement()) {
    const std::string_view name = e->Name();
    if (name == "actuator") tree.ParseActuators(e);
    if (name == "contact") tree.ParseContact(e);
  }
  Finish(path, compiler, &tree, &scene);
  return scene;
}

}  // namespace

Scene LoadMjcf(const std::string& path) {
  const std::string xml = ReadMaybeGzipped(path);
  return ParseMjcf(path, xml);
}

}  // namespace arena
